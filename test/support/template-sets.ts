/**
 * Template sets for tests: copies of the newest bundled set with some files
 * changed, and edits derived from the templates themselves, so that no test
 * depends on the shipped wording or on which set is the newest.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { tempDir } from "./temp.js";

export const ROOT = join(import.meta.dirname, "../..");
/** The newest bundled set's name (what a session renders with unless it pins one). */
export const NEWEST = [...readTemplateSets(join(ROOT, "templates")).keys()].at(-1) as string;
/** The newest bundled set's folder. */
export const BUNDLED_SET = join(ROOT, "templates", NEWEST);
/** The set `new-set` makes from the newest bundled one. */
export const NEXT = `v${Number(NEWEST.slice(1)) + 1}`;

/** The front-matter version of a template's text. */
export function versionOf(text: string): string {
	return parseTemplateFile(text, "template.hbs").meta.version;
}

/** A version one minor step after `version`. */
export function bumped(version: string): string {
	const [major, minor] = version.split(".").map(Number);
	return `${major}.${(minor ?? 0) + 1}.0`;
}

/**
 * `text` with `suffix` added to the last non-blank line of its body: an edit,
 * wherever that line stands (it may call a partial or close a block), for a
 * test that needs the text changed or broken; to see an edit in a
 * rendering, {@link addLine}.
 */
export function editLastLine(text: string, suffix: string): string {
	const lines = parseTemplateFile(text, "template.hbs").body.split("\n");
	const line = lines.filter((l) => l.trim() !== "").at(-1) as string;
	const at = text.lastIndexOf(line);
	return text.slice(0, at + line.length) + suffix + text.slice(at + line.length);
}

/**
 * `text` with `line` added as the last line of its body: outside every
 * block, so it renders whatever the template's structure, on a line of its
 * own at the end of what the template writes.
 */
export function addLine(text: string, line: string): string {
	return `${text.endsWith("\n") ? text : `${text}\n`}${line}\n`;
}

/** `text` with its front-matter version set to `version`. */
export function withVersion(text: string, version: string): string {
	return text.replace(/^version: .*$/m, `version: "${version}"`);
}

/** A template's text changed by `change`, its version bumped: an edit the build takes. */
export function bumpedEdit(text: string, change: (text: string) => string): string {
	return withVersion(change(text), bumped(versionOf(text)));
}

/**
 * Copies the newest bundled set to folder `set`, and the categories it uses
 * (its own, or the shared ones) to `categories.yaml` in folder `beside`, as
 * the one every set there shares: a test edits them there, whatever the
 * newest set's layout.
 */
export function copyBundledSet(set: string, beside: string): void {
	cpSync(BUNDLED_SET, set, { recursive: true });
	const own = join(set, "categories.yaml");
	cpSync(existsSync(own) ? own : join(ROOT, "categories.yaml"), join(beside, "categories.yaml"));
	rmSync(own, { force: true });
}

/** A category for a tool no set names, added last: an edit of any categories.yaml. */
export function withExtraCategory(text: string): string {
	return `${text.endsWith("\n") ? text : `${text}\n`}  - name: Extra\n    tools: [extra_tool_${Date.now()}]\n`;
}

/**
 * A templates folder holding one set `v1`, the newest bundled one (its categories
 * beside it, shared) with each file in
 * `changes` replaced (a string) or rewritten (a function of its text);
 * `null` deletes the file.
 */
export function templateSet(
	changes: Record<string, string | null | ((text: string) => string)> = {},
): string {
	const root = tempDir("theway-templates-");
	copyBundledSet(join(root, "v1"), root);
	for (const [name, change] of Object.entries(changes)) {
		const file = name === "categories.yaml" ? join(root, name) : join(root, "v1", name);
		if (change === null) rmSync(file);
		else
			writeFileSync(file, typeof change === "string" ? change : change(readFileSync(file, "utf8")));
	}
	return root;
}

/**
 * A templates folder holding `v1`, the newest bundled set, and `v2`, the same
 * with each file in `changes` edited ({@link bumpedEdit}) or, for `null`,
 * deleted: two sets for a diff.
 */
export function twoSets(changes: Record<string, ((text: string) => string) | null>): string {
	const root = templateSet();
	cpSync(join(root, "v1"), join(root, "v2"), { recursive: true });
	for (const [name, change] of Object.entries(changes)) {
		const file = join(root, "v2", name);
		if (change === null) rmSync(file);
		else writeFileSync(file, bumpedEdit(readFileSync(file, "utf8"), change));
	}
	return root;
}

/** The template that renders a virtualized tool result, and carries the set's policy. */
export const STUB_FILE = "tool-result-stub.hbs";

/** A stub template's text with some fields of its `virtualize:` policy replaced. */
export function withPolicy(
	text: string,
	policy: Partial<Record<string, number | boolean | string>>,
): string {
	let out = text;
	for (const [key, value] of Object.entries(policy)) {
		const line = new RegExp(`^(\\s+${key}:) .*$`, "m");
		if (!line.test(out)) throw new Error(`no ${key} in the stub's policy`);
		out = out.replace(line, `$1 ${String(value)}`);
	}
	return out;
}

/** The newest bundled set's stub template, as text. */
export function bundledStub(): string {
	return readFileSync(join(BUNDLED_SET, STUB_FILE), "utf8");
}

/**
 * `text` (a framing template) with its marker replaced by `marker`: the
 * front-matter's `marker` and every body line that is the old marker.
 */
export function replaceMarker(text: string, marker: string): string {
	const { meta, body } = parseTemplateFile(text, "template.hbs");
	if (meta.marker === undefined) throw new Error("the template declares no marker");
	const old = meta.marker;
	const head = text.slice(0, text.length - body.length);
	const lines = body.split("\n").map((line) => (line === old ? marker : line));
	return head.replace(/^marker: .*$/m, `marker: ${JSON.stringify(marker)}`) + lines.join("\n");
}
