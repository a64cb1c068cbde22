/**
 * Measuring a context: sections are exact slices of the prompt, token counts
 * are gpt-tokenizer's own, parts follow the partials a template calls,
 * messages carry their entry ids and kinds, images are counted apart, and
 * budgets come from the front-matter.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { templateBudgets } from "../../src/measure/budget.js";
import { measureContext, sectionSpans } from "../../src/measure/measure.js";
import { measureLoaded, measuringService } from "../../src/measure/session.js";
import { overBudget } from "../../src/rules/budgets.js";
import { ContextService } from "../../src/service/context-service.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { imageSize } from "../../src/text/content.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import { SECTIONS } from "../../src/view/schema.js";
import { entry, HEADER, user, writeLog } from "../support/session.js";
import { templateSet } from "../support/template-sets.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const EXAMPLES = join(FIXTURES, "examples");
const FRAMINGS = join(FIXTURES, "sessions/framings.jsonl");
const plain = { disallowedSpecial: new Set<string>() };
const tokenizer = loadTokenizerSync("o200k");

function measure(file: string, templates?: string) {
	return measureLoaded(
		measuringService(templates === undefined ? {} : { templates }),
		file,
		tokenizer,
	);
}

describe("sections", () => {
	const files = readdirSync(EXAMPLES).map((f) => join(EXAMPLES, f));

	it("are the prompt's own slices, tags included, in order, counted as gpt-tokenizer counts", () => {
		for (const file of files) {
			const { bundle, size } = measure(file);
			const prompt = bundle.systemPrompt;
			const names = size.systemPrompt.sections.map((s) => s.name);
			expect(names).toEqual(SECTIONS.filter((s) => prompt.includes(`<${s}>`)));
			for (const s of size.systemPrompt.sections) {
				const text = prompt.slice(s.start, s.end);
				expect(text.startsWith(`<${s.name}>\n`) && text.endsWith(`</${s.name}>`)).toBe(true);
				expect(s.chars).toBe(text.length);
				expect(s.tokens).toBe(o200k(text, plain));
			}
			// Together with the line breaks between them, the sections are the whole prompt.
			expect(size.systemPrompt.sections.map((s) => prompt.slice(s.start, s.end)).join("\n")).toBe(
				prompt,
			);
			expect(size.systemPrompt.tokens).toBe(o200k(prompt, plain));
		}
	});

	it("finds no section in text without tags", () => {
		expect(sectionSpans("no sections here")).toEqual([]);
	});
});

describe("parts", () => {
	// A harness of the test's own, whole and with its last lines moved into a partial it calls.
	const lines = ["You are a test.", "Line two.", "Line three.", "Line four."];
	const head = (name: string, extra = "") =>
		`---\nname: ${name}\nversion: "1.0.0"\ndescription: d\n${extra}---\n`;
	const partBody = `${lines.slice(2).join("\n")}\n`;
	const dir = templateSet({
		"harness.hbs": `${head("harness")}${lines.slice(0, 2).join("\n")}\n{{> harness-tail}}\n`,
		"harness-tail.hbs": `${head("harness-tail", "budget: { tokens: 3 }\n")}${partBody}`,
	});
	const wholeDir = templateSet({ "harness.hbs": `${head("harness")}${lines.join("\n")}\n` });
	const file = join(EXAMPLES, "1-normal.jsonl");
	const harnessOf = (size: ReturnType<typeof measure>["size"]) =>
		size.systemPrompt.sections.find((s) => s.name === "harness");

	it("are the partials a section calls, each the slice of the real prompt it wrote", () => {
		const split = measure(file, dir);
		const whole = measure(file, wholeDir);
		expect(split.bundle.systemPrompt).toBe(whole.bundle.systemPrompt);
		const parts = harnessOf(split.size)?.parts ?? [];
		expect(parts.map((p) => p.template)).toEqual(["harness-tail"]);
		const part = parts[0] as (typeof parts)[number];
		const text = split.bundle.systemPrompt.slice(part.start, part.end);
		expect(text.trimEnd()).toBe(partBody.trimEnd());
		expect(part.tokens).toBe(o200k(text, plain));
		expect(harnessOf(whole.size)?.parts).toBeUndefined();
	});

	it("carry their template's budget, and go over it", () => {
		const split = measure(file, dir);
		const over = overBudget(split.size);
		expect(over.map((o) => o.template)).toEqual(["harness-tail"]);
		const source = readTemplateSets(dir).get("v1");
		expect(source && templateBudgets(source).get("harness-tail")).toMatchObject({
			tokens: 3,
			line: 5,
		});
	});
});

describe("messages", () => {
	it("carry their index, entry id, kind and provider role; an excluded one is left out", () => {
		const { bundle, size } = measure(FRAMINGS);
		const service = new ContextService();
		const llm = service.convertToLlm(bundle);
		expect(size.messages).toHaveLength(llm.length);
		for (const m of size.messages) {
			expect(m.entryId).toBe(bundle.entryIds[m.index]);
			expect(m.source).toBe(bundle.messages[m.index]?.role);
		}
		const excluded = bundle.messages.findIndex(
			(m) => (m as { excludeFromContext?: boolean }).excludeFromContext === true,
		);
		expect(excluded).not.toBe(-1);
		expect(size.messages.some((m) => m.index === excluded)).toBe(false);
		const kinds = new Map(size.messages.map((m) => [m.source, m.kind]));
		expect(kinds.get("compactionSummary")).toBe("summary");
		expect(kinds.get("branchSummary")).toBe("summary");
		expect(kinds.get("custom")).toBe("custom");
		expect(size.messages.every((m) => ["user", "assistant", "toolResult"].includes(m.role))).toBe(
			true,
		);
		expect(size.total.tokens).toBe(
			size.systemPrompt.tokens + size.messages.reduce((n, m) => n + m.tokens, 0),
		);
		const last = size.messages.at(-1);
		expect(size.cacheStable).toEqual({
			tokens: size.total.tokens - (last?.tokens ?? 0),
			messages: size.messages.length - 1,
		});
	});

	it("count text, thinking and tool calls with their JSON arguments; images apart", () => {
		const png = Buffer.alloc(24);
		png.writeUInt32BE(0x89504e47, 0);
		png.writeUInt32BE(300, 16);
		png.writeUInt32BE(100, 20);
		const call = { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } };
		const path = writeLog([
			HEADER,
			entry("a1", null, {
				type: "message",
				message: {
					role: "assistant",
					content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "ok" }, call],
					usage: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, totalTokens: 18 },
					timestamp: 1,
				},
			}),
			entry("u1", "a1", {
				type: "message",
				message: {
					role: "user",
					content: [{ type: "image", mimeType: "image/png", data: png.toString("base64") }],
					timestamp: 2,
				},
			}),
		]);
		const { size } = measure(path);
		const [a, u] = size.messages;
		const text = 'hmm\nok\nread {"path":"a.ts"}';
		expect(a).toMatchObject({ chars: text.length, tokens: o200k(text, plain), images: 0 });
		expect(u).toMatchObject({ chars: 0, tokens: 0, images: 1, imageTokens: 40 });
		expect(size.images).toEqual({ count: 1, tokens: 40 });
		expect(size.recordedUsage).toEqual({
			input: 10,
			output: 5,
			cacheRead: 2,
			cacheWrite: 1,
			total: 18,
		});
	});

	it("count special-token strings as plain text", () => {
		const { size } = measure(writeLog([HEADER, user("u1", null, "a <|endoftext|> b")]));
		expect(size.messages[0]?.tokens).toBe(o200k("a <|endoftext|> b", plain));
	});
});

describe("tokenizers", () => {
	it("cl100k counts as gpt-tokenizer does; chars is a labelled estimate", () => {
		const text = readFileSync(FRAMINGS, "utf8");
		expect(loadTokenizerSync("cl100k").count(text)).toBe(cl100k(text, plain));
		const chars = loadTokenizerSync("chars");
		expect(chars.exact).toBe(false);
		expect(chars.count(text)).toBe(Math.ceil(text.length / 4));
		expect(tokenizer.exact).toBe(true);
	});

	it("measureContext needs no sources: no parts, no budgets", () => {
		const service = new ContextService();
		const bundle = service.loadSync(FRAMINGS);
		const size = measureContext(
			bundle,
			service.templateSet(bundle.meta.templateVersion),
			tokenizer,
		);
		expect(size.systemPrompt.sections.length).toBeGreaterThan(0);
		expect(
			size.systemPrompt.sections.every((s) => s.parts === undefined && s.budget === undefined),
		).toBe(true);
	});
});

describe("image sizes", () => {
	it("read PNG, GIF and JPEG headers, and nothing from other data", () => {
		const gif = Buffer.from("GIF89a\x20\x00\x10\x00", "latin1");
		expect(imageSize(gif.toString("base64"))).toEqual({ width: 32, height: 16 });
		const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0, 64, 0, 128, 3]);
		expect(imageSize(jpeg.toString("base64"))).toEqual({ width: 128, height: 64 });
		expect(imageSize(Buffer.from("plain text").toString("base64"))).toBeUndefined();
	});
});

describe("the templates a measure names", () => {
	it("exist in the set that rendered the session: sections, parts and every framed or stubbed message", () => {
		const sessions = [
			FRAMINGS,
			join(FIXTURES, "sessions/virtualized.jsonl"),
			...readdirSync(EXAMPLES).map((f) => join(EXAMPLES, f)),
		];
		let named = 0;
		let kinds = new Set<string>();
		for (const file of sessions) {
			const { source, size } = measure(file);
			const has = (name: string) => source?.templates.has(name) === true;
			for (const s of size.systemPrompt.sections) {
				expect(has(s.template), `${file}: ${s.template}`).toBe(true);
				for (const p of s.parts ?? []) expect(has(p.template), `${file}: ${p.template}`).toBe(true);
			}
			for (const m of size.messages) {
				if (m.template === undefined) continue;
				named++;
				kinds = kinds.add(m.kind);
				expect(has(m.template), `${file}: message ${m.index} names ${m.template}`).toBe(true);
			}
		}
		// Framed summaries, commands and stubbed results were among them; custom messages name none.
		expect(named).toBeGreaterThan(3);
		expect([...kinds].sort()).toEqual(expect.arrayContaining(["summary", "toolResult"]));
	});
});
