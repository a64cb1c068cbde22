/**
 * The virtualization policy and stub as parts of a template set (validated,
 * type-checked, carried by the precompiled set), and the CLI and sidecar
 * faces of the feature: `render --no-virtualize`, `render --format json`,
 * the sidecar's provider-ready messages.
 */
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError, ContextService, type LlmMessage } from "../../src/index.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { loadPrecompiled, precompiledPath } from "../../src/templates/precompiled.js";
import { contentOf } from "../../src/text/content.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import { runCli } from "../support/cli.js";
import { inProcess } from "../support/serve.js";
import { tempDir } from "../support/temp.js";
import {
	BUNDLED_SET,
	bundledStub,
	NEWEST,
	ROOT,
	STUB_FILE,
	templateSet,
	withPolicy,
} from "../support/template-sets.js";

const FIXTURES = join(ROOT, "test/fixtures");
const fixtures = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
	.filter((f) => f.endsWith(".jsonl"))
	.map((f) => join(FIXTURES, f));

/** The error a templates folder's newest set fails with. */
function failure(templates: string): ContextError {
	try {
		new ContextService({ templates }).templateSet();
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error("the set compiled");
}

describe("the policy and the stub in a template set", () => {
	it("ships on the newest set, carried as plain data by its precompiled module", () => {
		const root = join(ROOT, "templates");
		const source = readTemplateSets(root).get(NEWEST);
		expect(source?.templates.has(STUB_FILE.replace(/\.hbs$/, ""))).toBe(true);
		const set = loadPrecompiled(
			precompiledPath(root, NEWEST),
			source as NonNullable<typeof source>,
		);
		expect(set?.virtualize).toEqual(new ContextService().templateSet().virtualize);
		expect(set?.virtualize?.threshold).toBeGreaterThan(0);
		expect(set?.render["tool-result-stub"]).toBeTypeOf("function");
	});

	it("refuses a stub without a policy, and a policy on another template", () => {
		const policy = /^virtualize:\n(?:\s+.*\n)+/m;
		const bare = failure(templateSet({ [STUB_FILE]: (t) => t.replace(policy, "") }));
		expect(bare.code).toBe("bad_front_matter");
		expect(bare.file).toMatch(/tool-result-stub\.hbs$/);
		const block = policy.exec(bundledStub())?.[0] as string;
		const elsewhere = failure(
			templateSet({ "lineage.hbs": (t) => t.replace(/^---\n/, `---\n${block}`) }),
		);
		expect(elsewhere.file).toMatch(/lineage\.hbs$/);
		expect(elsewhere.message).toMatch(/virtualize/);
	});

	it.each([
		[{ threshold: 0 }, "threshold"],
		[{ unit: "bytes" }, "unit"],
		[{ head: -1 }, "head"],
		[{ countImages: "yes" }, "countImages"],
	])("validates the policy's fields: %o", (bad, field) => {
		const error = failure(templateSet({ [STUB_FILE]: (t) => withPolicy(t, bad) }));
		expect(error.code).toBe("bad_front_matter");
		expect(error.message).toContain(field);
		const line = bundledStub()
			.split("\n")
			.findIndex((l) => l.trimStart().startsWith(`${field}:`));
		expect(error.line).toBe(line + 1);
	});

	it("type-checks the stub against its view, like every template", () => {
		const typo = failure(
			templateSet({ [STUB_FILE]: (t) => t.replace("{{code entryId}}", "{{code entryID}}") }),
		);
		expect(typo.code).toBe("template_type");
		expect(typo.message).toMatch(/entryId/);
	});
});

describe("render and serve", () => {
	const noStub = templateSet({ [STUB_FILE]: null });
	const virtualizedFixture = join(FIXTURES, "sessions/virtualized.jsonl");

	it.each(fixtures)(
		"--no-virtualize --format llm equals the rendering without the feature: %s",
		async (fixture) => {
			const off = await runCli([
				"render",
				fixture,
				"--format",
				"llm",
				"--quiet",
				"--no-virtualize",
			]);
			const without = await runCli([
				"render",
				fixture,
				"--format",
				"llm",
				"--quiet",
				"--templates",
				noStub,
			]);
			expect(off.code).toBe(0);
			expect(off.stdout).toBe(without.stdout);
		},
	);

	it("--format json shows the stored messages and lists what was virtualized", async () => {
		const on = JSON.parse(
			(await runCli(["render", virtualizedFixture, "--format", "json", "--quiet"])).stdout,
		);
		const off = JSON.parse(
			(
				await runCli([
					"render",
					virtualizedFixture,
					"--format",
					"json",
					"--quiet",
					"--no-virtualize",
				])
			).stdout,
		);
		expect(on.messages).toEqual(off.messages);
		expect(off.meta.virtualized).toEqual([]);
		expect(on.meta.virtualized.map((v: { isError: boolean }) => v.isError)).toContain(true);
		const llm = JSON.parse(
			(await runCli(["render", virtualizedFixture, "--format", "llm", "--quiet"])).stdout,
		);
		const whole = JSON.parse(
			(
				await runCli([
					"render",
					virtualizedFixture,
					"--format",
					"llm",
					"--quiet",
					"--no-virtualize",
				])
			).stdout,
		);
		const listed = new Set(on.meta.virtualized.map((v: { toolCallId: string }) => v.toolCallId));
		llm.messages.forEach((m: { toolCallId?: string }, i: number) => {
			if (listed.has(m.toolCallId)) expect(m).not.toEqual(whole.messages[i]);
			else expect(m).toEqual(whole.messages[i]);
		});
	});

	it("--format text shows the stubs, marked, and the whole results with --no-virtualize", async () => {
		const heads = async (...extra: string[]) =>
			(await runCli(["render", virtualizedFixture, "--quiet", ...extra])).stdout
				.split("\n")
				.filter((l) => l.startsWith("──── #"));
		const on = await heads();
		const off = await heads("--no-virtualize");
		const listed = new ContextService().loadSync(virtualizedFixture).meta.virtualized;
		expect(on.filter((l) => l.includes("· stub of ")).length).toBe(listed.length);
		for (const v of listed) {
			expect(on[v.index]).toContain(`· stub of ${v.chars.toLocaleString("en-US")} chars`);
			expect(off[v.index]).not.toContain("stub");
		}
	});

	it("the sidecar sends the stubs, and the stored messages in the agent format", async () => {
		const { client } = inProcess();
		const llm = await client.call("load", { path: virtualizedFixture });
		const agent = await client.call("load", { path: virtualizedFixture, format: "agent" });
		const result = llm.result as {
			messages: unknown[];
			meta: { virtualized: { index: number }[] };
		};
		expect(result.meta.virtualized.length).toBeGreaterThan(0);
		const stored = (agent.result as { messages: unknown[] }).messages;
		for (const { index } of result.meta.virtualized) {
			expect(result.messages[index]).not.toEqual(stored[index]);
		}
		client.end();
		await client.done;
	});
});

describe("inspect and diff show the savings", () => {
	const fixture = join(FIXTURES, "sessions/virtualized.jsonl");

	it("inspect: per message and in total, in the tokenizer's counts", async () => {
		const run = await runCli(["inspect", fixture, "--format", "json", "--quiet"]);
		const size = JSON.parse(run.stdout);
		const bundle = new ContextService().loadSync(fixture);
		const stubs = size.messages.filter(
			(m: { virtualized?: unknown }) => m.virtualized !== undefined,
		);
		expect(stubs.map((m: { index: number }) => m.index)).toEqual(
			bundle.meta.virtualized.map((v) => v.index),
		);
		let saved = 0;
		for (const m of stubs) {
			expect(m.template).toBe(STUB_FILE.replace(/\.hbs$/, ""));
			expect(m.virtualized.saved).toBe(m.virtualized.tokens - m.tokens);
			saved += m.virtualized.saved;
		}
		expect(size.virtualized).toEqual({
			results: stubs.length,
			before: size.total.tokens + saved,
			saved,
		});
		// Without the stub, the total is the "before" of the stubbed rendering.
		const whole = JSON.parse(
			(
				await runCli([
					"inspect",
					fixture,
					"--format",
					"json",
					"--quiet",
					"--templates",
					templateSet({ [STUB_FILE]: null }),
				])
			).stdout,
		);
		expect(whole.virtualized).toEqual({ results: 0, before: whole.total.tokens, saved: 0 });
		expect(whole.total.tokens).toBe(size.virtualized.before);
		const text = await runCli(["inspect", fixture, "--quiet"]);
		expect(text.stdout).toContain(`${saved.toLocaleString("en-US")} saved`);
	});

	it("diff: the results sent as stubs and the tokens saved on each side", async () => {
		const root = tempDir("theway-virtual-diff-");
		cpSync(BUNDLED_SET, join(root, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(root, "categories.yaml"));
		const plain = templateSet({ [STUB_FILE]: null });
		cpSync(join(plain, "v1"), join(root, "v2"), { recursive: true });
		const run = await runCli([
			"diff",
			fixture,
			"--templates",
			root,
			"--from",
			"v1",
			"--to",
			"v2",
			"--tokenizer",
			"o200k",
			"--format",
			"json",
		]);
		const service = new ContextService();
		const bundle = service.loadSync(fixture);
		const listed = bundle.meta.virtualized;
		const convert = service.converter(bundle);
		const { count } = loadTokenizerSync("o200k");
		const textOf = (m: unknown) => contentOf((m as LlmMessage).content).text;
		const saved = listed.reduce(
			(sum, v) => sum + count(textOf(bundle.messages[v.index])) - count(textOf(convert(v.index))),
			0,
		);
		const { sessions, summary } = JSON.parse(run.stdout);
		expect(sessions[0].virtualized).toEqual({
			from: { results: listed.length, saved },
			to: { results: 0, saved: 0 },
		});
		expect(summary.virtualized).toEqual(sessions[0].virtualized);
		expect(summary.tokenDelta.total).toBe(saved);
	});

	it("diff: the tokens saved are labelled in the unit they were counted in", async () => {
		const root = tempDir("theway-virtual-diff-units-");
		cpSync(BUNDLED_SET, join(root, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(root, "categories.yaml"));
		cpSync(join(templateSet({ [STUB_FILE]: null }), "v1"), join(root, "v2"), { recursive: true });
		const args = ["diff", fixture, "--templates", root, "--from", "v1", "--to", "v2"];
		for (const tokenizer of [[], ["--tokenizer", "cl100k"], ["--tokenizer", "chars"]]) {
			const json = JSON.parse((await runCli([...args, ...tokenizer, "--format", "json"])).stdout);
			const text = (await runCli([...args, ...tokenizer])).stdout;
			expect(json.summary.units).toHaveLength(1);
			const unit = json.summary.units[0] as string;
			const saved = (json.summary.virtualized.from.saved as number).toLocaleString("en-US");
			expect(saved).not.toBe("0");
			expect(text).toMatch(new RegExp(`, saving ${saved} → [\\d,]+ ${unit} tokens\n`));
			if (tokenizer.length > 0) expect(unit).toBe(tokenizer[1]);
		}
	});
});
