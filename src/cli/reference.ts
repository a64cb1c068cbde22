/**
 * The references under `docs/reference/`, generated from the code so they
 * cannot drift: the command line from each command's declaration (its
 * options as data, src/cli/commands/), the view-models from their zod schemas (types,
 * optionality and `.describe()` texts), the error codes from their lists,
 * and the library's exports from `src/index.ts`. `npm run docs` writes them;
 * a test regenerates them and fails when a page differs.
 */
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { LIBRARY_ERROR_CODES, TOOL_CODES, WARNING_CODES } from "../errors.js";
import { describeValue, flatten } from "../templates/zod-types.js";
import { OPTIONAL_ROOT_VIEWS, ROOT_VIEWS } from "../view/schema.js";
import { COMMANDS } from "./commands/index.js";
import { commandHelp } from "./help.js";
import { MAIN_USAGE } from "./main.js";
import { defaultOf, type OptionSpec, optionLabel } from "./options.js";

/**
 * `docs/reference/cli.md`: the list of commands, the shared option groups
 * (each option once, as every command that takes it takes it), then every
 * command's help, all made from the declarations the parser reads.
 */
export function cliReference(): string {
	const specs = COMMANDS.map((c) => c.spec);
	const parts = [
		"# Command line reference",
		"",
		"Generated from the commands' declarations (`src/cli/commands/`, `npm run docs`): the parser, `--help` and this page read the same data, so none can say what another does not.",
		"",
		"```text",
		MAIN_USAGE.trimEnd(),
		"```",
		"",
		"## Shared options",
		"",
		"An option of a group means and checks the same on every command that takes it.",
		"",
		"| group | option | default | what it does | commands |",
		"| --- | --- | --- | --- | --- |",
	];
	const groups = new Map<string, { name: string; specs: OptionSpec[]; commands: string[] }>();
	for (const spec of specs) {
		for (const [name, o] of Object.entries(spec.options)) {
			if (o.group === undefined) continue;
			const key = `${o.group} ${name}`;
			const row = groups.get(key) ?? { name, specs: [], commands: [] };
			row.specs.push(o);
			row.commands.push(spec.name);
			groups.set(key, row);
		}
	}
	for (const [key, row] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		const [first] = row.specs as [OptionSpec];
		// A group made per command (`--format`'s choices) is shown with each command below.
		const alike = row.specs.every((o) => o === first);
		const label = alike ? optionLabel(row.name, first) : `--${row.name}`;
		const help = alike ? first.help : "by command: see each one below";
		parts.push(
			`| ${key.split(" ")[0]} | \`${cell(label)}\` | ${cell(defaultOf(first) ?? "")} | ${cell(help)} | ${row.commands.join(", ")} |`,
		);
	}
	for (const spec of specs) {
		parts.push("", `## ${spec.name}`, "", "```text", commandHelp(spec).trimEnd(), "```");
	}
	return `${parts.join("\n")}\n`;
}

interface Field {
	path: string;
	type: string;
	optional: boolean;
	description: string;
}

/** The fields of a view-model, depth first: objects open up, arrays of objects as `name[]`. */
function fieldsOf(schema: z.ZodType, prefix = ""): Field[] {
	const out: Field[] = [];
	const shape = (schema as { shape?: Record<string, z.ZodType> }).shape ?? {};
	for (const [key, field] of Object.entries(shape)) {
		const value = flatten(field);
		const path = `${prefix}${key}`;
		out.push({
			path,
			type: describeValue({ alts: value.alts, absent: false }),
			optional: value.absent,
			description: descriptionOf(field) ?? "",
		});
		const [only] = value.alts;
		if (value.alts.length !== 1 || only === undefined) continue;
		if (only.def.type === "object") out.push(...fieldsOf(only, `${path}.`));
		const element = (only as { element?: z.ZodType }).element;
		if (only.def.type === "array" && element !== undefined) {
			const [inner] = flatten(element).alts;
			if (inner?.def.type === "object") out.push(...fieldsOf(inner, `${path}[].`));
		}
	}
	return out;
}

/** A schema's `.describe()` text, looking through optional and nullable wrappers. */
function descriptionOf(schema: z.ZodType): string | undefined {
	let s: z.ZodType | undefined = schema;
	while (s !== undefined) {
		if (s.description !== undefined) return s.description;
		s = (s as { unwrap?: () => z.ZodType }).unwrap?.();
	}
	return undefined;
}

/** Every field a template can use, per root template, with no description. */
export function undescribedFields(): string[] {
	return Object.entries({ ...ROOT_VIEWS, ...OPTIONAL_ROOT_VIEWS }).flatMap(([name, schema]) =>
		fieldsOf(schema as z.ZodType)
			.filter((f) => f.description === "")
			.map((f) => `${name}: ${f.path}`),
	);
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** `docs/reference/view-model.md`: what each template sees, field by field. */
export function viewModelReference(): string {
	const parts = [
		"# View-model reference",
		"",
		"What each template sees, generated from the zod schemas of `src/view/` (`npm run docs`). The system prompt's skeleton and its four section templates see the system view; each framing and the tool-result stub see their own. A field marked optional may be absent: use it inside `{{#if}}` (the type checker says so otherwise).",
	];
	for (const [name, schema] of Object.entries({ ...ROOT_VIEWS, ...OPTIONAL_ROOT_VIEWS })) {
		const title = name === "system" ? "system (the skeleton and the sections)" : name;
		parts.push(
			"",
			`## ${title}`,
			"",
			"| field | type | optional | description |",
			"| --- | --- | --- | --- |",
		);
		for (const f of fieldsOf(schema as z.ZodType)) {
			parts.push(
				`| \`${f.path}\` | ${cell(f.type)} | ${f.optional ? "yes" : ""} | ${cell(f.description)} |`,
			);
		}
	}
	return `${parts.join("\n")}\n`;
}

/** `docs/reference/errors.md`: every code, in its list. */
export function errorCodesReference(): string {
	const list = (codes: readonly string[]) => codes.map((c) => `- \`${c}\``).join("\n");
	return [
		"# Error and warning codes",
		"",
		"Generated from `src/errors.ts` (`npm run docs`). A `ContextError` and each diagnostic carry one of these codes.",
		"",
		"## Errors the library's callers can get",
		"",
		list(LIBRARY_ERROR_CODES),
		"",
		"## Warnings (what a tolerant read skipped or repaired)",
		"",
		list(WARNING_CODES),
		"",
		"## The tools' own codes (the command line and the build step)",
		"",
		list(TOOL_CODES),
		"",
	].join("\n");
}

/**
 * `docs/reference/library.md`: every export of `index` (the path of
 * `src/index.ts`), its kind and the first sentence of its documentation,
 * read with the TypeScript compiler (a development dependency).
 */
export async function libraryReference(index: string): Promise<string> {
	const ts = (await import("typescript")).default;
	const program = ts.createProgram([index], {
		strict: true,
		module: ts.ModuleKind.NodeNext,
		moduleResolution: ts.ModuleResolutionKind.NodeNext,
		target: ts.ScriptTarget.ES2022,
		noEmit: true,
	});
	const checker = program.getTypeChecker();
	const source = program.getSourceFile(index);
	const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
	if (moduleSymbol === undefined) throw new Error(`${index}: not a module`);
	const rows = checker.getExportsOfModule(moduleSymbol).map((exported) => {
		const symbol =
			exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
		const declaration = symbol.declarations?.[0];
		const kind =
			declaration === undefined
				? "value"
				: ts.isClassDeclaration(declaration)
					? "class"
					: ts.isFunctionDeclaration(declaration)
						? "function"
						: ts.isInterfaceDeclaration(declaration)
							? "interface"
							: ts.isTypeAliasDeclaration(declaration)
								? "type"
								: "const";
		const doc = ts
			.displayPartsToString(symbol.getDocumentationComment(checker))
			.replace(/\s+/g, " ")
			.trim();
		const first = /^.*?\.(?=\s|$)/.exec(doc)?.[0] ?? doc;
		return { name: exported.getName(), kind, doc: first };
	});
	rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const text = readFileSync(index, "utf8");
	const intro =
		/^\/\*\*([\s\S]*?)\*\//
			.exec(text)?.[1]
			?.replace(/^\s*\* ?/gm, "")
			.replace(/\s+/g, " ")
			.trim() ?? "";
	return [
		"# Library exports",
		"",
		`Generated from \`src/index.ts\` and the documentation of each export (\`npm run docs\`). ${intro}`,
		"",
		"| export | kind | what it is |",
		"| --- | --- | --- |",
		...rows.map((r) => `| \`${r.name}\` | ${r.kind} | ${cell(r.doc)} |`),
		"",
	].join("\n");
}

/** The generated pages, by path under `docs/reference/`. */
export async function references(index: string): Promise<Map<string, string>> {
	const protocol = index.replace(/index\.ts$/, "serve/protocol.ts");
	return new Map([
		["sidecar.md", await sidecarReference(protocol)],
		["cli.md", cliReference()],
		["view-model.md", viewModelReference()],
		["errors.md", errorCodesReference()],
		["library.md", await libraryReference(index)],
	]);
}

/** A command a page shows with its output: `<!-- command: ARGS -->` before a fenced block. */
export interface CommandExample {
	/** The arguments after `theway-context`, split on spaces. */
	args: string[];
	/** The 1-based line of the marker. */
	line: number;
	/** The block's text, as the page has it. */
	shown: string;
}

const COMMAND_MARKER = /^<!-- command: (.+?) -->$/;

/**
 * The page `text` with every command example's block replaced by `run(args)`
 * (the command's output), and the examples whose block differed.
 */
export function updateExamples(
	text: string,
	run: (args: string[]) => string,
): { text: string; examples: CommandExample[]; drifted: CommandExample[] } {
	const lines = text.split("\n");
	const examples: CommandExample[] = [];
	const drifted: CommandExample[] = [];
	for (let i = 0; i < lines.length; i++) {
		const match = COMMAND_MARKER.exec(lines[i] as string);
		if (match === null) continue;
		const open = i + 1;
		const close = lines.findIndex((l, k) => k > open && l.startsWith("```"));
		if (!lines[open]?.startsWith("```") || close === -1) {
			throw new Error(`line ${i + 1}: a command marker must be followed by a fenced code block`);
		}
		const example = {
			args: (match[1] as string).split(" ").filter((a) => a !== ""),
			line: i + 1,
			shown: lines.slice(open + 1, close).join("\n"),
		};
		examples.push(example);
		const actual = run(example.args).replace(/\n+$/, "");
		if (actual !== example.shown) {
			drifted.push(example);
			lines.splice(open + 1, close - open - 1, ...actual.split("\n"));
		}
		i = open;
	}
	return { text: lines.join("\n"), examples, drifted };
}

/**
 * `docs/reference/sidecar.md`: every method of the sidecar with its params
 * (from the protocol's own schema, `METHODS`, and the documentation of
 * `LoadParams`) and every error code (from `RpcCode` and its documentation),
 * read from `protocol` (the path of `src/serve/protocol.ts`).
 */
export async function sidecarReference(protocol: string): Promise<string> {
	const { METHODS, PROTOCOL_VERSION, RpcCode } = await import("../serve/protocol.js");
	const ts = (await import("typescript")).default;
	const source = ts.createSourceFile(
		protocol,
		readFileSync(protocol, "utf8"),
		ts.ScriptTarget.ES2022,
		true,
	);
	/** The doc comment of each member of `container` (an interface or an object literal), by name. */
	const docs = (container: string) => {
		const out = new Map<string, string>();
		const visit = (node: import("typescript").Node) => {
			const named =
				(ts.isInterfaceDeclaration(node) && node.name.text === container) ||
				(ts.isVariableDeclaration(node) &&
					ts.isIdentifier(node.name) &&
					node.name.text === container);
			if (named) {
				node.forEachChild(function member(child: import("typescript").Node) {
					if ((ts.isPropertySignature(child) || ts.isPropertyAssignment(child)) && child.name) {
						const text = ts
							.getJSDocCommentsAndTags(child)
							.map((d) => (typeof d.comment === "string" ? d.comment : ""))
							.join(" ")
							.replace(/\s+/g, " ")
							.trim();
						out.set(child.name.getText(source), text);
					}
					child.forEachChild(member);
				});
			}
			node.forEachChild(visit);
		};
		visit(source);
		return out;
	};
	const loadDocs = docs("LoadParams");
	const codeDocs = docs("RpcCode");
	const kinds: Record<string, string> = {
		string: "string",
		strings: "array of string",
		format: '"llm" | "agent"',
		boolean: "boolean",
	};
	const parts = [
		"# Sidecar protocol reference",
		"",
		`Generated from the protocol's own schema (\`src/serve/protocol.ts\`, \`npm run docs\`). JSON-RPC 2.0, one object per line on stdin and stdout; protocol version ${PROTOCOL_VERSION}. [sidecar.md](../sidecar.md) explains each method's reply.`,
		"",
		"## Methods",
	];
	for (const [method, spec] of Object.entries(METHODS)) {
		parts.push("", `### ${method}`, "");
		const params = Object.entries(spec.params as Record<string, string>);
		if (params.length === 0) {
			parts.push("No params.");
			continue;
		}
		parts.push("| param | type | required | what it is |", "| --- | --- | --- | --- |");
		for (const [name, kind] of params) {
			const required = (spec.required as readonly string[]).includes(name) ? "yes" : "";
			const doc = loadDocs.get(name) ?? ""; // a param means what it means for load
			parts.push(`| \`${name}\` | ${cell(kinds[kind] ?? kind)} | ${required} | ${cell(doc)} |`);
		}
	}
	parts.push("", "## Error codes", "", "| code | name | when |", "| --- | --- | --- |");
	for (const [name, code] of Object.entries(RpcCode)) {
		parts.push(`| ${code} | ${name} | ${cell(codeDocs.get(name) ?? "")} |`);
	}
	return `${parts.join("\n")}\n`;
}
