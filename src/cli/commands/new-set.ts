/** `new-set`, declared: its options and help (the body is ../new-set.ts, loaded when it runs). */

import { TEMPLATES } from "../option-groups.js";
import { declareCommand } from "../options.js";

/** When to bump a template in place, when to make a set: said by --help and after a new set. */
export const BUMP_OR_SET = `Bump in place or make a new set?
  A session renders with the set it pins (templateVersion), else the newest.
  - Bump a template in place (edit it, raise its version, npm run snapshots)
    when every session should get the change, the pinned ones included: the
    prompt of every session pinned to that set changes (their prompt caches
    start again).
  - Make a new set (new-set, then edit and bump there) when sessions already
    pinned to a set must keep their prompt byte for byte: they stay on the old
    set, and sessions that pin none get the new one, the newest.
`;

export const NEW_SET = declareCommand({
	name: "new-set",
	summary: "copy the newest template set to the next version",
	synopsis: "[--templates DIR]",
	args: { name: "", count: "none" },
	description: `Copies the newest template set to the next version (v2 to v3: its templates
and the categories.yaml it uses, its own or the shared one, as the new set's
own, so editing it changes no older set) and records the new set in the
templates folder's lock.json. Nothing is written over: a set that exists
stays as it is. Then edit the new set's templates, bump each one you change,
and run npm run snapshots (theway-context build --update).`,
	options: { ...TEMPLATES },
	notes: BUMP_OR_SET,
});
