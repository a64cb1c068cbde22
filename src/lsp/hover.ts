/**
 * Hover in a template: the type and description of the path under the
 * cursor (resolved at the cursor's scope; where it may be absent, the guard
 * it needs, or none in a guard's own argument), a helper's signature, a
 * partial's description; and, on a front-matter key, a section tag or a
 * partial call, the template's size on the fixture sessions, with its budget.
 */
import { type Hover, MarkupKind } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { FrontMatterSchema } from "../templates/front-matter.js";
import { HELPER_SIGNATURES } from "../templates/helpers.js";
import { describeValue, flatten, type Schema } from "../templates/zod-types.js";
import { SECTIONS } from "../view/schema.js";
import { signatureText } from "./completion.js";
import type { TemplateSize } from "./fixtures.js";
import {
	bodyStart,
	descriptionOf,
	fieldsOf,
	mustaches,
	resolveText,
	scopeAt,
	type Texts,
} from "./scope.js";
import { parseCached } from "./workspace.js";

/** What a hover may add about sizes: each template's largest rendering, and how to show a fixture. */
export interface SizeInfo {
	largest: ReadonlyMap<string, TemplateSize> | undefined;
	show: (fixture: string) => string;
}

const SECTION_TAG = new RegExp(`</?(${SECTIONS.join("|")})>`, "g");
const PATH_CHAR = /[\w@$.\-/[\]]/;

/** The size of template `name` on the fixtures, as one markdown line. */
export function sizeLine(name: string, sizes: SizeInfo): string {
	const size = sizes.largest?.get(name);
	if (sizes.largest === undefined)
		return "Size on the fixtures: not measured yet (the set must check first).";
	if (size === undefined) return `\`${name}\` writes nothing on the fixture sessions.`;
	const budget = size.budget === undefined ? "no budget declared" : `budget ${size.budget} tokens`;
	return `Size on the fixtures: up to **${size.tokens} tokens** (${size.unit}), in ${sizes.show(size.fixture)}; ${budget}.`;
}

/** The hover at `offset` of template `name`. */
export function hover(
	texts: Texts,
	name: string,
	document: TextDocument,
	offset: number,
	sizes: SizeInfo,
): Hover | undefined {
	const text = document.getText();
	const t = texts.get(name);
	const md = (value: string): Hover => ({ contents: { kind: MarkupKind.Markdown, value } });
	if (t !== undefined && text.startsWith("---") && offset < bodyStart(text, t.file)) {
		const pos = document.positionAt(offset);
		const line = text.slice(offset - pos.character).split("\n")[0] ?? "";
		const key = /^([A-Za-z_]+)\s*:/.exec(line)?.[1];
		const schema =
			key === undefined ? undefined : (FrontMatterSchema.shape as Record<string, Schema>)[key];
		const head =
			schema === undefined
				? ""
				: `**${key}**: ${describeValue(flatten(schema))}\n\n${descriptionOf(schema) ?? ""}\n\n`;
		return md(`${head}${sizeLine(name, sizes)}`);
	}
	const pos = document.positionAt(offset);
	const lineStart = offset - pos.character;
	const lineText = text.slice(lineStart).split("\n")[0] ?? "";
	for (const m of lineText.matchAll(SECTION_TAG)) {
		const at = lineStart + (m.index as number);
		if (offset >= at && offset < at + m[0].length)
			return md(`section **${m[1]}**\n\n${sizeLine(m[1] as string, sizes)}`);
	}
	const m = mustaches(text).find((x) => x.start <= offset && offset < x.end);
	if (m === undefined || m.sigil === "!") return undefined;
	let start = offset;
	while (start > m.start && PATH_CHAR.test(text[start - 1] as string)) start--;
	let end = offset;
	while (end < m.end && PATH_CHAR.test(text[end] as string) && text[end] !== ".") end++;
	const token = text.slice(start, end);
	if (token === "" || /^\d/.test(token)) return undefined;
	const range = { start: document.positionAt(start), end: document.positionAt(end) };
	const before = text.slice(m.start, start).replace(/^\{+~?\s*[#/>^]?\s*/, "");
	const first = before.trim() === "";
	if (m.sigil === ">" && first) {
		const partial = texts.get(token);
		const parsed = partial === undefined ? undefined : parseCached(partial.text, partial.file);
		const description = parsed?.ok ? parsed.file.meta.description : "not a template of this set";
		return { ...md(`partial **${token}**\n\n${description}\n\n${sizeLine(token, sizes)}`), range };
	}
	const sig = Object.hasOwn(HELPER_SIGNATURES, token) ? HELPER_SIGNATURES[token] : undefined;
	if (sig !== undefined && (first || before.trim().endsWith("("))) {
		return { ...md(`helper \`${signatureText(token, sig)}\``), range };
	}
	const scope = scopeAt(texts, name, m.start);
	const v = resolveText(token, scope);
	if (v === undefined) return undefined;
	const dot = token.lastIndexOf(".");
	const segment = token.slice(dot + 1);
	const parent = dot === -1 ? scope.stack.at(-1) : resolveText(token.slice(0, dot), scope);
	const description =
		parent === undefined ? undefined : descriptionOf(fieldsOf(parent).get(segment));
	const lines = [`\`${token}\`: ${describeValue(v)}`];
	if (description !== undefined) lines.push(description);
	// A guard's own argument may be absent (the block tests it); a field of an absent prefix may not.
	const guard = /^(?:#|else\s+)(if|unless|each|with)\s+$/.exec(`${m.sigil}${before}`)?.[1];
	const at = v.absentAt ?? token;
	if (v.absent && guard !== undefined && at === token)
		lines.push(`Optional: this \`#${guard}\` tests whether it is there.`);
	else if (v.absent) lines.push(`May be absent here: guard it with \`{{#if ${at}}}\`.`);
	return { ...md(lines.join("\n\n")), range };
}
