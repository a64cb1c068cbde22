/**
 * Both official SDKs against a fake provider on 127.0.0.1: what eval sends
 * is, field by field, what `render --format anthropic|openai` prints for
 * the call's leaf; the answers are read into one shape; 429 with
 * retry-after, 500, a timeout, a malformed body and a dropped connection
 * end as documented; and the key reaches neither an error nor the output.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSender, EvalRequestError } from "../../src/eval/client.js";
import { runCli } from "../support/cli.js";
import { writeAgentSession } from "../support/eval-session.js";
import { FakeProvider } from "../support/fake-provider.js";

const KEY = "sk-test-SECRET-4f1a";
let fake: FakeProvider;
let url: string;

beforeEach(async () => {
	fake = new FakeProvider();
	url = await fake.start();
	vi.stubEnv("ANTHROPIC_API_KEY", KEY);
	vi.stubEnv("OPENAI_API_KEY", KEY);
	vi.stubEnv("ANTHROPIC_BASE_URL", "");
	vi.stubEnv("OPENAI_BASE_URL", "");
});
afterEach(async () => {
	vi.unstubAllEnvs();
	await fake.stop();
});

describe.each([
	["anthropic", "claude-sonnet-4-5", "", "/v1/messages"],
	["openai", "gpt-5", "/v1", "/v1/chat/completions"],
] as const)("%s through its SDK", (provider, model, suffix, path) => {
	it("sends, field by field, what render prints for the call's leaf, with the key in the header", async () => {
		const file = writeAgentSession();
		fake.move = () => ({ tool: "read", arguments: { path: "a.txt" } });
		const run = await runCli([
			"eval",
			file,
			"--model",
			`${provider}:${model}`,
			"--base-url",
			`${url}${suffix}`,
			"--calls",
			"all",
			"--no-cache",
			"--format",
			"json",
		]);
		expect(run.stderr).not.toContain(KEY);
		expect(run.stdout).not.toContain(KEY);
		expect(fake.requests).toHaveLength(4);
		const parents = ["u1", "r1", "u2", "r3"];
		for (const request of fake.requests) {
			expect(request.path).toBe(path);
			const { authorization, "x-api-key": apiKey } = request.headers;
			expect([authorization, apiKey]).toContain(apiKey === undefined ? `Bearer ${KEY}` : KEY);
		}
		// Requests go out concurrently: match each by its last message to the render of its leaf.
		const rendered = [];
		for (const leaf of parents) {
			const r = await runCli([
				"render",
				file,
				"--leaf",
				leaf,
				"--format",
				provider,
				"--model",
				model,
				"--base-url",
				`${url}${suffix}`,
			]);
			rendered.push(JSON.parse(r.stdout));
		}
		const sent = fake.requests.map((r) => r.body);
		for (const body of rendered) {
			const twin = sent.find((s) => JSON.stringify(s.messages) === JSON.stringify(body.messages));
			expect(twin).toBeDefined();
			for (const field of Object.keys(body)) expect(twin?.[field]).toEqual(body[field]);
			expect(Object.keys(twin ?? {}).sort()).toEqual(Object.keys(body).sort());
		}
		const report = JSON.parse(run.stdout);
		expect(report.runs).toHaveLength(4);
		const first = report.runs[0];
		expect(first).toMatchObject({
			index: 0,
			entryId: "a1",
			answer: { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
			recorded: { text: "", toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
			sameAsRecorded: { tool: true, arguments: true },
			fromCache: false,
			error: null,
		});
		expect(first.answer.usage).toEqual(
			provider === "anthropic"
				? { input: 100, cacheRead: 1000, cacheWrite: 50, output: 20 }
				: { input: 100, cacheRead: 1000, cacheWrite: 0, output: 20 },
		);
		expect(report.runs[1].sameAsRecorded).toEqual({ tool: false, arguments: false });
		expect(report.summary).toMatchObject({ runs: 4, errors: 0, sameTool: 1 });
	});

	const send = (options: { timeoutMs?: number; maxRetries?: number } = {}) =>
		createSender({ provider, apiKey: KEY, baseUrl: `${url}${suffix}`, ...options });
	const body =
		provider === "anthropic"
			? { model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] }
			: { model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
	const signal = new AbortController().signal;

	it("waits as a 429's retry-after says, then gets the answer", async () => {
		fake.script.push({
			status: 429,
			headers: { "retry-after": "1" },
			json: { error: { message: "slow down" } },
		});
		const start = Date.now();
		const answer = await (await send())(body, signal);
		expect(Date.now() - start).toBeGreaterThanOrEqual(900);
		expect(answer.text).toBe("Done.");
		expect(fake.requests).toHaveLength(2);
	});

	it("retries a 500 twice, then fails with the status and no key", async () => {
		for (let i = 0; i < 3; i++) {
			fake.script.push({ status: 500, json: { error: { message: `boom, your key ${KEY}` } } });
		}
		const error = await (await send())(body, signal).catch((e) => e);
		expect(error).toBeInstanceOf(EvalRequestError);
		expect(error.message).toMatch(/500/);
		expect(error.message).not.toContain(KEY);
		expect(error.message).toContain("[key]");
		expect(fake.requests).toHaveLength(3);
	});

	it("blanks a short key only where it stands whole, not inside the words of a message", async () => {
		fake.script.push({ status: 400, json: { error: { message: "unknown model; key was k" } } });
		const short = createSender({
			provider,
			apiKey: "k",
			baseUrl: `${url}${suffix}`,
			maxRetries: 0,
		});
		const error = await (await short)(body, signal).catch((e) => e);
		expect(error).toBeInstanceOf(EvalRequestError);
		expect(error.message).toContain("unknown model; key was [key]");
	});

	it("leaves no listener on the run's signal after a request, and a stop still ends one", async () => {
		const run = new AbortController();
		const sender = await send();
		for (let i = 0; i < 12; i++) await sender(body, run.signal);
		expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
		fake.script.push({ hang: true });
		const pending = sender(body, run.signal).catch((e) => e);
		while (fake.requests.length < 13) await new Promise((r) => setTimeout(r, 10));
		run.abort();
		const error = await pending;
		expect(error).toBeInstanceOf(EvalRequestError);
		expect(error.message).toBe("stopped before an answer came");
		expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
	});

	it("gives up on a hanging server after the timeout, each attempt retried", async () => {
		fake.script.push({ hang: true }, { hang: true });
		const error = await (await send({ timeoutMs: 200, maxRetries: 1 }))(body, signal).catch(
			(e) => e,
		);
		expect(error.message).toMatch(/timed out: no answer within 200 ms \(after 2 attempts\)/);
		expect(fake.requests).toHaveLength(2);
	});

	it("reports a malformed body, as JSON that is not an answer or as no JSON at all", async () => {
		fake.script.push({ status: 200, json: { nothing: true } });
		const shape = await (await send())(body, signal).catch((e) => e);
		expect(shape.message).toMatch(new RegExp(`malformed ${provider} response`));
		fake.script.push({ status: 200, raw: "<html>oops" });
		const raw = await (await send())(body, signal).catch((e) => e);
		expect(raw.message).toMatch(/malformed|JSON/);
	});

	it("retries a dropped connection, then reports it", async () => {
		fake.script.push({ drop: true }, { drop: true });
		const error = await (await send({ maxRetries: 1 }))(body, signal).catch((e) => e);
		expect(error.message).toMatch(/connection error/);
		expect(fake.requests).toHaveLength(2);
	});
});
