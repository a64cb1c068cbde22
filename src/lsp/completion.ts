/**
 * Completion in a template: inside a mustache, the view-model's paths at
 * the cursor's scope (each item the segment it completes), block params,
 * `@` data variables, helpers with their signatures and, after `{{>`, the
 * set's partials; in the front-matter, the keys the build lets this template
 * declare. Every item carries its type and the schema's description.
 */
import {
	type CompletionItem,
	CompletionItemKind,
	MarkupKind,
	type Range,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { mayDeclare } from "../templates/compile.js";
import { FrontMatterSchema } from "../templates/front-matter.js";
import { HELPER_SIGNATURES } from "../templates/helpers.js";
import type { HelperSignature } from "../templates/typecheck.js";
import { describeValue, flatten, type Schema } from "../templates/zod-types.js";
import {
	bodyStart,
	descriptionOf,
	fieldsOf,
	openBlocks,
	resolveText,
	scopeAt,
	type Texts,
} from "./scope.js";
import { parseCached } from "./workspace.js";

const BLOCKS = ["if", "unless", "each", "with"];
const DATA: [string, string][] = [
	["index", "number"],
	["key", "number"],
	["first", "boolean"],
	["last", "boolean"],
];

/** A helper's call as its signature reads: `join list:string[] [string] → string`. */
export function signatureText(name: string, sig: HelperSignature): string {
	const optional = sig.optionalParams ?? 0;
	const params = sig.params.map((p, i) => (i >= sig.params.length - optional ? `[${p}]` : p));
	return `${name} ${params.join(" ")} → ${sig.returns}`;
}

/** The mustache the cursor is typing in: the offset after its `{{` and its text so far. */
export function openMustache(
	text: string,
	offset: number,
): { start: number; typed: string } | undefined {
	const open = text.lastIndexOf("{{", offset - 1);
	if (open === -1 || text.lastIndexOf("}}", offset - 1) > open) return undefined;
	let start = open + 2;
	while (text[start] === "{" || text[start] === "~") start++;
	return { start, typed: text.slice(start, offset) };
}

const doc = (text: string | undefined) =>
	text === undefined ? {} : { documentation: { kind: MarkupKind.Markdown, value: text } };

/** The completion items at `offset` of template `name` (one of `texts`). */
export function complete(
	texts: Texts,
	name: string,
	document: TextDocument,
	offset: number,
): CompletionItem[] {
	const text = document.getText();
	const t = texts.get(name);
	if (t !== undefined && offset < bodyStart(text, t.file) && text.startsWith("---")) {
		return frontMatterKeys(name, text, offset, document);
	}
	const open = openMustache(text, offset);
	if (open === undefined || open.typed.startsWith("!")) return [];
	const sigil = /^\s*([#/>^]?)\s*/.exec(open.typed)?.[1] ?? "";
	const after = open.typed.replace(/^\s*[#/>^]?\s*/, "");
	const token = /[^\s(]*$/.exec(after)?.[0] ?? "";
	const first = after.length === token.length;
	const up = /^(\.\.\/)*/.exec(token)?.[0] ?? "";
	const rest = token.slice(up.length);
	const dot = rest.lastIndexOf(".");
	const base = dot === -1 ? "" : rest.slice(0, dot);
	const range: Range = {
		start: document.positionAt(offset - (rest.length - dot - 1)),
		end: document.positionAt(offset),
	};
	if (sigil === ">") return first ? partials(texts, name, range) : [];
	if (sigil === "/") {
		const block = openBlocks(text, t === undefined ? 0 : bodyStart(text, t.file), open.start)
			.filter((b) => !b.chained)
			.at(-1);
		const label = block?.name;
		return label === undefined || !first
			? []
			: [
					{
						label,
						kind: CompletionItemKind.Keyword,
						detail: `closes {{#${label}}}`,
						textEdit: { range, newText: label },
					},
				];
	}
	const items: CompletionItem[] = [];
	const scope = scopeAt(texts, name, open.start);
	if (rest.startsWith("@") && dot === -1) {
		const at = { ...range, start: document.positionAt(offset - rest.length + 1) };
		const data = scope.eachDepth > 0 ? DATA : [];
		for (const [label, type] of [...data, ["root", "the root context"] as const]) {
			items.push({
				label,
				kind: CompletionItemKind.Variable,
				detail: type,
				textEdit: { range: at, newText: label },
			});
		}
		return items;
	}
	const v =
		base === ""
			? scope.stack[scope.stack.length - 1 - up.length / 3]
			: resolveText(up + base, scope);
	if (v !== undefined) {
		for (const [field, schema] of fieldsOf(v)) items.push(fieldItem(field, schema, range));
	}
	if (base === "" && up === "" && !rest.startsWith("this")) {
		for (const [param, pv] of scope.params)
			items.push({
				label: param,
				kind: CompletionItemKind.Variable,
				detail: `${describeValue(pv)} (block param)`,
				textEdit: { range, newText: param },
			});
		const helpers = first || after.includes("(") || sigil === "#";
		if (helpers) {
			for (const [helper, sig] of Object.entries(HELPER_SIGNATURES))
				items.push({
					label: helper,
					kind: CompletionItemKind.Function,
					detail: signatureText(helper, sig),
					textEdit: { range, newText: helper },
				});
		}
		if (sigil === "#" && first)
			for (const b of BLOCKS)
				items.push({
					label: b,
					kind: CompletionItemKind.Keyword,
					detail: `#${b} block`,
					textEdit: { range, newText: b },
				});
	}
	return items;
}

function fieldItem(field: string, schema: Schema, range: Range): CompletionItem {
	return {
		label: field,
		kind: CompletionItemKind.Field,
		detail: describeValue(flatten(schema)),
		...doc(descriptionOf(schema)),
		textEdit: { range, newText: field },
	};
}

function partials(texts: Texts, self: string, range: Range): CompletionItem[] {
	const items: CompletionItem[] = [];
	for (const [name, t] of texts) {
		if (name === self) continue;
		const parsed = parseCached(t.text, t.file);
		items.push({
			label: name,
			kind: CompletionItemKind.Module,
			detail: parsed.ok ? `partial, version ${parsed.file.meta.version}` : "partial",
			...doc(parsed.ok ? parsed.file.meta.description : undefined),
			textEdit: { range, newText: name },
		});
	}
	return items;
}

/** Front-matter keys template `name` may declare and has not yet written, at the start of a line. */
function frontMatterKeys(
	name: string,
	text: string,
	offset: number,
	document: TextDocument,
): CompletionItem[] {
	const pos = document.positionAt(offset);
	const line = text.slice(offset - pos.character, offset);
	if (!/^[A-Za-z_]*$/.test(line)) return [];
	const present = new Set([...text.matchAll(/^([A-Za-z_]+)\s*:/gm)].map((m) => m[1]));
	const range: Range = { start: { line: pos.line, character: 0 }, end: pos };
	return Object.entries(FrontMatterSchema.shape)
		.filter(([key]) => !present.has(key) && mayDeclare(name, key))
		.map(([key, schema]) => ({
			label: key,
			kind: CompletionItemKind.Property,
			detail: describeValue(flatten(schema as Schema)),
			...doc(descriptionOf(schema as Schema)),
			textEdit: { range, newText: `${key}: ` },
		}));
}
