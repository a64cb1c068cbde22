/**
 * The table-driven spec: every `*.yaml` file beside this one holds cases of
 * the log contract and of rendering, as data. One case:
 *
 * ```yaml
 * - name: a line that is not JSON is skipped with a warning
 *   log:                       # one item per line
 *     - {type: message, id: u1, parentId: null, message: {role: user, content: hi}}
 *     - "{not json"            # a string is written as it is
 *   options: {strict: true}    # ContextService and load options (strict, leaf, templateVersion…)
 *   error: bad_json@3          # or: code@line:column; or the expectations below
 *   says: not valid JSON       # a regular expression the error's reason matches
 *   errorIn: templates         # the error names this file (default: the log)
 *   messages: ["user: hi"]     # each message as "role: text"
 *   stored: [{role: user, content: hi, timestamp: 1}]  # or each message exactly as stored
 *   llm: ["user: hi"]          # the provider-ready messages, the same way
 *   warnings:                  # every warning, in order: code@line[:column],
 *     - skipped_line@3         # or {at: code@line, says: regular expression}
 *   meta: {entryCount: 1}      # fields of the bundle's meta
 *   leaf: u1
 *   templates: spec            # render with the spec's own set (test/spec/templates)
 *   system: "<harness>…"       # the whole system prompt, or each section's text:
 *   sections: {harness: spec harness v2, lineage: null}  # null: the section is absent
 *   sent: [{role: user, content: [{type: text, text: hi}]}]  # each provider-ready message exactly
 *   llmWarnings: [unknown_message_role]  # every warning of the conversion (default none)
 * ```
 *
 * `templates: spec` renders with the terse, structural template set beside
 * this file, so that rendering cases never depend on the shipped wording or
 * on which shipped set is the newest; it is the default of the `rendering*`
 * files, `shipped` (the package's own sets) of the others. A case's
 * `options.virtualize` applies to the conversion too.
 *
 * An object in `log` is written as JSON; an entry (any type but `session`)
 * without a `timestamp` gets one, and so does a message without one. The
 * standard version-3 header is written first unless `header` says otherwise:
 * `header: none` (the log brings its own, or none), or an object to use.
 * `bom: true` writes a UTF-8 byte-order mark first; `eol: none` leaves the
 * last line without its newline. Image blocks read as `<image>`, text blocks
 * are joined with `|`. Every load must leave the log's bytes as they were,
 * and an error's message must name the file and line it is at.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import {
	type ContextBundle,
	ContextError,
	ContextService,
	type Diagnostic,
} from "../../src/index.js";

const Case = z.strictObject({
	name: z.string(),
	log: z.array(z.union([z.string(), z.record(z.string(), z.unknown())])),
	header: z.union([z.literal("none"), z.record(z.string(), z.unknown())]).optional(),
	bom: z.boolean().optional(),
	eol: z.literal("none").optional(),
	options: z.record(z.string(), z.unknown()).optional(),
	error: z.string().optional(),
	says: z.string().optional(),
	errorIn: z.string().optional(),
	messages: z.array(z.string()).optional(),
	stored: z.array(z.record(z.string(), z.unknown())).optional(),
	llm: z.array(z.string()).optional(),
	warnings: z
		.array(z.union([z.string(), z.strictObject({ at: z.string(), says: z.string() })]))
		.optional(),
	meta: z.record(z.string(), z.unknown()).optional(),
	leaf: z.union([z.string(), z.null()]).optional(),
	templates: z.enum(["spec", "shipped"]).optional(),
	system: z.string().optional(),
	sections: z
		.strictObject({
			harness: z.string().optional(),
			tools: z.string().optional(),
			environment: z.string().optional(),
			lineage: z.union([z.string(), z.null()]).optional(),
		})
		.optional(),
	sent: z.array(z.record(z.string(), z.unknown())).optional(),
	llmWarnings: z.array(z.string()).optional(),
});
type Case = z.infer<typeof Case>;

const HEADER = {
	type: "session",
	version: 3,
	id: "spec",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/spec",
};
const TIMESTAMP = "2026-01-01T00:00:01.000Z";
/** The spec's own template sets: terse, structural texts, `v1` and the newest, `v2`. */
const SPEC_TEMPLATES = join(import.meta.dirname, "templates");
const SECTION_NAMES = ["harness", "tools", "environment", "lineage"] as const;

const dir = mkdtempSync(join(tmpdir(), "theway-context-spec-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The case's log as file bytes. */
function bytesOf(c: Case): Buffer {
	const items = c.header === "none" ? c.log : [c.header ?? HEADER, ...c.log];
	const lines = items.map((item) =>
		typeof item === "string" ? item : JSON.stringify(filled(item)),
	);
	const text = lines.join("\n") + (c.eol === "none" ? "" : "\n");
	return Buffer.concat([Buffer.from(c.bom === true ? "\ufeff" : ""), Buffer.from(text)]);
}

function filled(item: Record<string, unknown>): Record<string, unknown> {
	if (item.type === "session" || "timestamp" in item) return item;
	const message = item.message as Record<string, unknown> | undefined;
	const withTime =
		typeof message === "object" && message !== null && !("timestamp" in message)
			? { ...item, message: { ...message, timestamp: 1 } }
			: item;
	return { ...withTime, timestamp: TIMESTAMP };
}

/** "role: text" of a message, bundle or provider-ready. */
function describeMessage(m: Record<string, unknown>): string {
	const text =
		typeof m.summary === "string"
			? m.summary
			: typeof m.command === "string"
				? m.command
				: typeof m.payload === "object"
					? (m.payload as { summary: string }).summary
					: contentText(m.content);
	return `${m.role as string}: ${text}`;
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return JSON.stringify(content);
	return content
		.map((b: { type?: string; text?: unknown; thinking?: unknown; name?: unknown }) =>
			b.type === "image"
				? "<image>"
				: b.type === "toolCall"
					? `<call ${b.name}>`
					: (b.text ?? b.thinking),
		)
		.join("|");
}

/**
 * The text of each section of a system prompt, in the order they appear: a
 * section is its opening tag alone on a line, up to its closing tag alone on
 * a line.
 */
function sectionsOf(prompt: string): Record<string, string> {
	const out: Record<string, string> = {};
	const tag = new RegExp(`^<(${SECTION_NAMES.join("|")})>\\n([\\s\\S]*?)\\n</\\1>$`, "gm");
	for (const m of prompt.matchAll(tag)) out[m[1] as string] = m[2] as string;
	return out;
}

const where = (e: { code: string; line?: number | undefined; column?: number | undefined }) =>
	`${e.code}${e.line === undefined ? "" : `@${e.line}`}${e.column === undefined ? "" : `:${e.column}`}`;

function run(c: Case, file: string, templates: "spec" | "shipped"): void {
	const bytes = bytesOf(c);
	writeFileSync(file, bytes);
	const options: Record<string, unknown> = {
		...(templates === "spec" ? { templates: SPEC_TEMPLATES } : {}),
		...c.options,
	};
	const service = new ContextService(options);
	let bundle: ContextBundle;
	try {
		bundle = service.loadSync(file, options);
	} catch (error) {
		if (!(error instanceof ContextError) || c.error === undefined) throw error;
		expect(readFileSync(file).equals(bytes), "the log was written").toBe(true);
		if (c.errorIn === undefined) expect(error.file).toBe(file);
		else expect(error.file?.endsWith(c.errorIn), `${error.file}`).toBe(true);
		expect(where(error)).toBe(c.error);
		if (error.line !== undefined) expect(error.message).toContain(`${error.file}:${error.line}`);
		if (c.says !== undefined) expect(error.reason).toMatch(new RegExp(c.says));
		return;
	}
	expect(readFileSync(file).equals(bytes), "the log was written").toBe(true);
	expect(c.error, "loaded, but an error was expected").toBeUndefined();
	const warnings = bundle.meta.diagnostics.filter((d) => d.severity === "warning");
	const expected = c.warnings ?? [];
	expect(warnings.map(where)).toEqual(expected.map((w) => (typeof w === "string" ? w : w.at)));
	warnings.forEach((d, i) => {
		expect(d.file).toBe(file);
		const w = expected[i];
		if (typeof w === "object") expect(d.message).toMatch(new RegExp(w.says));
	});
	if (c.meta !== undefined) expect(bundle.meta).toMatchObject(c.meta);
	if (c.stored !== undefined) expect(bundle.messages).toEqual(c.stored);
	if (c.messages !== undefined) {
		expect(bundle.messages.map((m) => describeMessage(m as Record<string, unknown>))).toEqual(
			c.messages,
		);
	}
	if (c.llm !== undefined || c.sent !== undefined) {
		const diagnostics: Diagnostic[] = [];
		const virtualize = options.virtualize as boolean | undefined;
		const llm = service.convertToLlm(bundle, {
			diagnostics,
			...(virtualize === undefined ? {} : { virtualize }),
		}) as Record<string, unknown>[];
		if (c.llm !== undefined) expect(llm.map(describeMessage)).toEqual(c.llm);
		if (c.sent !== undefined) expect(llm).toEqual(c.sent);
		expect(diagnostics.map(where)).toEqual(c.llmWarnings ?? []);
	} else expect(c.llmWarnings, "llmWarnings needs llm or sent").toBeUndefined();
	if (c.leaf !== undefined) expect(bundle.meta.leafId).toBe(c.leaf);
	if (c.system !== undefined) expect(bundle.systemPrompt).toBe(c.system);
	if (c.sections !== undefined) {
		const found = sectionsOf(bundle.systemPrompt);
		expect(Object.keys(found), "sections in their order").toEqual(
			SECTION_NAMES.filter((s) => s in found),
		);
		for (const [name, text] of Object.entries(c.sections)) {
			if (text === null) expect(found, `no ${name} section`).not.toHaveProperty(name);
			else expect(found[name], `the ${name} section`).toBe(text);
		}
	}
}

const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith(".yaml"));

it("holds spec files", () => {
	expect(files.length).toBeGreaterThan(0);
});

for (const name of files) {
	const cases = z.array(Case).parse(parse(readFileSync(join(import.meta.dirname, name), "utf8")));
	describe(name, () => {
		cases.forEach((c, i) => {
			it(c.name, () => {
				const expects = [c.error, c.messages, c.stored, c.llm, c.sent, c.meta, c.leaf];
				expects.push(c.system, c.sections);
				expect(expects.some((e) => e !== undefined)).toBe(true);
				const templates = c.templates ?? (name.startsWith("rendering") ? "spec" : "shipped");
				run(c, join(dir, `${name.replace(/\.yaml$/, "")}-${i}.jsonl`), templates);
			});
		});
	});
}
