/**
 * Version discipline. A committed lock file records, per template set, each
 * template's version and content hash, the categories' hash and the set's
 * fingerprint. A template whose text changed under an unchanged version fails
 * the build (so does a categories change without a bump of `tools`); any
 * other difference means the lock is stale and `build --update` rewrites it.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Diagnostic } from "../errors.js";
import type { TemplateSetSource } from "../templates/compile.js";

export const LOCK_FILE = "lock.json";

const Sha = z.string().regex(/^[0-9a-f]{64}$/);
export const LockSchema = z.strictObject({
	sets: z.record(
		z.string(),
		z.strictObject({
			fingerprint: Sha,
			templates: z.record(z.string(), z.strictObject({ version: z.string(), sha256: Sha })),
			categories: z.strictObject({ sha256: Sha }),
		}),
	),
});
export type Lock = z.infer<typeof LockSchema>;
type SetLock = Lock["sets"][string];

/** A checked set as the lock sees it. */
export interface LockInput {
	source: TemplateSetSource;
	fingerprint: string;
	templateVersions: Readonly<Record<string, string>>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A template's text without its front-matter `budget` (the key and its
 * indented lines): a budget changes no prompt, so changing it needs no bump.
 */
export function withoutBudget(text: string): string {
	const lines = text.split("\n");
	const end = lines.indexOf("---", 1);
	const start = lines.findIndex((l, i) => i < end && /^budget\s*:/.test(l));
	if (start === -1) return text;
	let stop = start + 1;
	while (stop < end && /^\s/.test(lines[stop] as string)) stop++;
	lines.splice(start, stop - start);
	return lines.join("\n");
}

/** The lock entry `input` would have. */
export function lockEntry(input: LockInput): SetLock {
	const templates: SetLock["templates"] = {};
	for (const name of [...input.source.templates.keys()].sort()) {
		const t = input.source.templates.get(name);
		templates[name] = {
			version: input.templateVersions[name] ?? "",
			sha256: sha256(withoutBudget(t?.text ?? "")),
		};
	}
	return {
		fingerprint: input.fingerprint,
		templates,
		categories: { sha256: sha256(input.source.categories.text) },
	};
}

/**
 * Compares the sets with the lock. Errors (code `version_not_bumped`) are
 * text changes without a version bump; warnings (code `lock_stale`) are
 * differences that `--update` records.
 */
export function checkLock(
	lock: Lock | undefined,
	inputs: readonly LockInput[],
	lockFile: string,
): Diagnostic[] {
	const out: Diagnostic[] = [];
	const stale = (message: string) =>
		out.push({ severity: "warning", code: "lock_stale", message, file: lockFile });
	// Per categories file, the sets whose tools section it changed under an unchanged tools.hbs.
	const unbumped = new Map<string, { version: string; tools: string }[]>();
	for (const input of inputs) {
		const { version } = input.source;
		const locked = lock?.sets[version];
		const now = lockEntry(input);
		const start = out.length;
		if (locked === undefined) {
			stale(`template set ${version} is not in the lock`);
			continue;
		}
		for (const [name, entry] of Object.entries(now.templates)) {
			const before = locked.templates[name];
			const file = input.source.templates.get(name)?.file ?? name;
			if (input.templateVersions[name] === undefined) continue; // unreadable: reported elsewhere
			if (before === undefined) {
				stale(`${version}/${name} is new`);
			} else if (before.sha256 !== entry.sha256 && before.version === entry.version) {
				out.push(
					notBumped(file, input.source.templates.get(name)?.text ?? "", name, entry.version),
				);
			} else if (before.sha256 !== entry.sha256 || before.version !== entry.version) {
				if (compareSemver(entry.version, before.version) < 0) {
					out.push({
						severity: "error",
						code: "version_not_bumped",
						message: `${name}'s version went back from ${before.version} to ${entry.version}`,
						file,
						line: versionLine(input.source.templates.get(name)?.text ?? ""),
					});
				} else {
					stale(`${version}/${name} changed (version ${before.version} → ${entry.version})`);
				}
			}
		}
		for (const name of Object.keys(locked.templates)) {
			if (now.templates[name] === undefined) stale(`${version}/${name} was removed`);
		}
		if (locked.categories.sha256 !== now.categories.sha256) {
			const tools = locked.templates.tools;
			if (tools !== undefined && tools.version === now.templates.tools?.version) {
				const file = input.source.categories.file;
				unbumped.set(file, [...(unbumped.get(file) ?? []), { version, tools: tools.version }]);
			} else {
				stale(`${version}: categories.yaml changed`);
			}
		}
		const categoriesRefused = [...unbumped.values()].some((l) =>
			l.some((s) => s.version === version),
		);
		if (out.length === start && !categoriesRefused && locked.fingerprint !== now.fingerprint)
			stale(`${version}: fingerprint changed (a budget changed, which changes no prompt)`);
	}
	for (const version of Object.keys(lock?.sets ?? {})) {
		if (!inputs.some((i) => i.source.version === version)) stale(`template set ${version} is gone`);
	}
	for (const [file, sets] of unbumped) out.push(categoriesNotBumped(file, sets, inputs));
	return out;
}

/**
 * A `categories.yaml` changed under sets whose tools.hbs kept its version:
 * one error for the file. When several sets share it, it says so (an edit
 * changes each of them, and their recorded snapshots) and how to change the
 * newest one's categories alone: the shared file as it was, a copy of its own.
 */
function categoriesNotBumped(
	file: string,
	sets: readonly { version: string; tools: string }[],
	inputs: readonly LockInput[],
): Diagnostic {
	const names = sets.map((s) => s.version).join(", ");
	const still =
		sets.length === 1
			? `bump the version of tools.hbs (still ${sets[0]?.tools})`
			: `bump the version of tools.hbs in each (still ${sets.map((s) => `${s.tools} in ${s.version}`).join(", ")})`;
	const sharing = inputs.filter((i) => i.source.categories.file === file).map((i) => i.source);
	const newest = sharing.at(-1);
	const hint =
		sharing.length < 2 || newest === undefined
			? ""
			: `; it is shared by ${sharing.map((s) => s.version).join(", ")}, so an edit of it changes each of them and their recorded snapshots: to change the categories of ${newest.version} alone, put it back as it was and edit a copy of it as ${newest.version}/categories.yaml (a set's own categories.yaml wins over the shared one; new-set gives a new set its own)`;
	return {
		severity: "error",
		code: "version_not_bumped",
		message: `categories.yaml changed, which changes the tools section of ${names}: ${still}${hint}`,
		file,
		line: 1,
	};
}

/** The lock that records `inputs` as they are now. */
export function nextLock(inputs: readonly LockInput[]): Lock {
	const sets: Lock["sets"] = {};
	for (const input of inputs) sets[input.source.version] = lockEntry(input);
	return { sets };
}

function notBumped(file: string, text: string, name: string, version: string): Diagnostic {
	return {
		severity: "error",
		code: "version_not_bumped",
		message: `${name} changed but its version is still ${version}: bump it (a pinned session's prompt must never change under the same version)`,
		file,
		line: versionLine(text),
		column: 1,
	};
}

/** The line of the `version:` key in a template's front-matter (1 if not found). */
function versionLine(text: string): number {
	const lines = text.split("\n");
	const i = lines.findIndex((l) => /^version\s*:/.test(l));
	return i === -1 ? 1 : i + 1;
}

/** Compares `a.b.c` versions numerically. */
export function compareSemver(a: string, b: string): number {
	const pa = a.split(".").map(Number);
	const pb = b.split(".").map(Number);
	for (let i = 0; i < 3; i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return d;
	}
	return 0;
}
