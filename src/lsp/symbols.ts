/**
 * A template's outline and its links: document symbols for the front-matter,
 * the sections (`<harness>` … `</harness>` in the skeleton), the blocks and
 * the partial calls; go to definition from a `{{> partial}}` to its file.
 */
import { pathToFileURL } from "node:url";
import { type DocumentSymbol, type Location, SymbolKind } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { SECTIONS } from "../view/schema.js";
import { bodyStart, mustaches, type Texts } from "./scope.js";

const TAG = new RegExp(`<(/?)(${SECTIONS.join("|")})>`, "g");

/** The outline of a template: front-matter, sections, blocks and partial calls, nested. */
export function documentSymbols(document: TextDocument, file: string): DocumentSymbol[] {
	const text = document.getText();
	const root: DocumentSymbol[] = [];
	const open: { symbol: DocumentSymbol; close: string }[] = [];
	const add = (s: DocumentSymbol) => (open.at(-1)?.symbol.children ?? root).push(s);
	const at = (start: number, end: number) => ({
		start: document.positionAt(start),
		end: document.positionAt(end),
	});
	const head = bodyStart(text, file);
	if (head > 0) {
		const range = at(0, head);
		root.push({ name: "front-matter", kind: SymbolKind.Property, range, selectionRange: range });
	}
	type Event = {
		start: number;
		end: number;
		kind: "open" | "close" | "leaf";
		name: string;
		label: string;
		symbol: SymbolKind;
	};
	const events: Event[] = [];
	for (const m of text.slice(head).matchAll(TAG)) {
		const start = head + (m.index as number);
		const name = m[2] as string;
		events.push({
			start,
			end: start + m[0].length,
			kind: m[1] === "/" ? "close" : "open",
			name: `<${name}>`,
			label: `section ${name}`,
			symbol: SymbolKind.Namespace,
		});
	}
	for (const m of mustaches(text)) {
		if (m.start < head || m.sigil === "!") continue;
		const word = m.inner.split(/\s+/)[0] ?? "";
		if (m.sigil === "#")
			events.push({
				start: m.start,
				end: m.end,
				kind: "open",
				name: `#${word}`,
				label: `#${m.inner}`,
				symbol: SymbolKind.Struct,
			});
		else if (m.sigil === "/")
			events.push({
				start: m.start,
				end: m.end,
				kind: "close",
				name: `#${word}`,
				label: "",
				symbol: SymbolKind.Struct,
			});
		else if (m.sigil === ">")
			events.push({
				start: m.start,
				end: m.end,
				kind: "leaf",
				name: word,
				label: `> ${word}`,
				symbol: SymbolKind.Module,
			});
	}
	events.sort((a, b) => a.start - b.start);
	for (const e of events) {
		const range = at(e.start, e.end);
		if (e.kind === "leaf") add({ name: e.label, kind: e.symbol, range, selectionRange: range });
		else if (e.kind === "open") {
			const symbol: DocumentSymbol = {
				name: e.label,
				kind: e.symbol,
				range,
				selectionRange: range,
				children: [],
			};
			add(symbol);
			open.push({ symbol, close: e.name });
		} else {
			const i = open.map((o) => o.close).lastIndexOf(e.name);
			if (i === -1) continue;
			for (const o of open.splice(i))
				o.symbol.range = { start: o.symbol.range.start, end: range.end };
		}
	}
	return root;
}

/** Where the partial named at `offset` (in `{{> name}}`) is defined. */
export function definition(
	texts: Texts,
	document: TextDocument,
	offset: number,
): Location | undefined {
	const text = document.getText();
	const m = mustaches(text).find((x) => x.start <= offset && offset < x.end && x.sigil === ">");
	if (m === undefined) return undefined;
	const name = m.inner.split(/\s+/)[0] ?? "";
	const target = texts.get(name);
	if (target === undefined) return undefined;
	const line = Math.max(0, text.length === 0 ? 0 : lineOfBody(target.text, target.file));
	const range = { start: { line, character: 0 }, end: { line, character: 0 } };
	return { uri: pathToFileURL(target.file).href, range };
}

function lineOfBody(text: string, file: string): number {
	const head = bodyStart(text, file);
	return text.slice(0, head).split("\n").length - 1;
}
