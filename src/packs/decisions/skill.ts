/**
 * The usage skill the decisions pack publishes: how an agent finds what
 * governs a change before making it, with moor's tools.
 */
import type { SkillDefinition } from '../../host/pack.js';

const BODY = `# Consult the decision records before you change code

This repository keeps architecture decision records (ADRs). They say why the
code is the way it is and what must stay true. moor serves them through a few
read-only tools. Use them **before** you edit, not after a reviewer asks.

## The routine

1. **Before editing files, ask what governs them.** Call
   \`get_decision_context\` with every path you intend to change (up to 200 per
   call, relative to the repository root). For each file it answers:
   - \`governing\`: accepted decisions in force for the file, already followed
     through supersession to the current one (\`replaces\` names the older
     decisions they took over from). Honour these.
   - \`proposed\`: proposals that would govern the file. Not binding yet, but
     the direction the team is heading; mention them if your change conflicts.
   - \`inCycle\`: decisions caught in a supersession cycle (A supersedes B, B
     supersedes A). **None of them governs** until a person fixes the records.
     Do not pick a side silently: tell the user which records disagree.
   - nothing at all: no decision names the file. That is not permission to
     ignore the corpus — search it for the topic (step 2).
2. **When the change is about a topic rather than files** (a library, a
   pattern, "how do we do retries"), call \`search_decisions\` with a few
   keywords. Filter with \`status\` (for example \`accepted\`) when you only want
   what is in force. Results are ranked; read the top hits.
3. **Read the decision before relying on it.** Call \`get_decision\` with an id,
   number (\`7\`, \`0007\`, \`ADR-7\`), slug or path. You get the status, date,
   the paths it governs, its relations and the full text. Quote the decision
   (id and title) when you explain why you did something.
4. **When history matters** (why was X dropped? what replaced Y?), call
   \`list_superseded\`: every "A supersedes B" link and its state, plus records
   marked superseded that never say what replaced them.

## Reading statuses

- \`accepted\` (or \`amended\`): in force.
- \`proposed\`: under discussion; not binding.
- \`superseded\`: history. Follow \`supersededBy\` to the decision in force; never
  apply a superseded decision to new code.
- \`deprecated\`, \`rejected\`: not in force; useful only as background.
- \`unknown\`: the record's status could not be read. Treat it with care and say so.

## What relation states mean

\`get_decision\` reports each relation (\`supersedes\`, \`supersededBy\`, \`amends\`,
\`amendedBy\`) with a state:

- \`resolved\`: the other decision exists; \`ref\` is its id and \`path\` its file.
- \`dangling\`: the record names a decision that does not exist (\`ref\` is what
  it wrote). The link is broken; do not guess what it meant.
- \`ambiguous\`: the reference matches several decisions (\`candidates\` lists
  them). Read each before deciding which one applies.
- \`cycle\`: the link is part of a supersession cycle; neither side governs.

A superseded record with no successor named is listed by \`list_superseded\`
under \`withoutSuccessor\`: it is out of force, and nothing says what replaced it.

## When something is wrong

- \`get_decision\` says a file "could not be read as a decision": the file
  exists but is empty or its front matter is broken. Do not treat it as absent;
  tell the user which file and why.
- "No decision matches": try \`search_decisions\`, or one of the closest ids it
  suggests.
- Broken links, cycles, unreadable files and governed paths that match no file
  are all reported by \`check_decisions\`. If you touched decision records, run
  it and fix what you broke.

## What not to do

- Do not edit a decision record to make your change fit. Records change through
  a new decision that supersedes or amends the old one, agreed with a person.
- Do not assume the newest-looking record wins: governance follows the
  supersession links, which \`get_decision_context\` has already followed.
`;

export const consultDecisionsSkill: SkillDefinition = {
  name: 'consult-decisions',
  description:
    'Find the architecture decisions that govern a change before making it: which moor tool to call when (get_decision_context, search_decisions, get_decision, list_superseded) and what statuses and relation states (resolved, dangling, ambiguous, cycle) mean. Use before editing code in a repository with decision records.',
  body: BODY,
};
