/**
 * A fake model provider on 127.0.0.1 for the eval tests: node:http speaking
 * the Anthropic Messages API (`POST /v1/messages`) and OpenAI's Chat
 * Completions (`POST /v1/chat/completions`) in the shapes of their API
 * references. Each request is recorded (path, headers, parsed body); what
 * it answers is the next scripted reply (a status and body, a raw body, a
 * dropped connection, a hang) or else a tool call or text the test chose.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, vi } from "vitest";

export interface Recorded {
	path: string;
	headers: IncomingHttpHeaders;
	body: Record<string, unknown>;
}

/** A scripted reply. */
export type Reply =
	| { status: number; headers?: Record<string, string>; json?: unknown; raw?: string }
	| { drop: true }
	| { hang: true };

/** What a default answer does: call `tool` with `arguments`, or say `text`. */
export interface Move {
	tool?: string;
	arguments?: Record<string, unknown>;
	text?: string;
}

export class FakeProvider {
	readonly requests: Recorded[] = [];
	readonly script: Reply[] = [];
	/** The default answer, given the request (after the script runs out). */
	move: (request: Recorded) => Move = () => ({ text: "Done." });
	private server: Server | undefined;
	private readonly hanging = new Set<() => void>();

	/** Starts listening; resolves to the base URL (`http://127.0.0.1:PORT`). */
	async start(): Promise<string> {
		this.server = createServer((req, res) => {
			let data = "";
			req.on("data", (c) => {
				data += c;
			});
			req.on("end", () => {
				const recorded = {
					path: req.url ?? "",
					headers: req.headers,
					body: JSON.parse(data || "{}") as Record<string, unknown>,
				};
				this.requests.push(recorded);
				const reply = this.script.shift();
				if (reply !== undefined && "drop" in reply) {
					req.socket.destroy();
					return;
				}
				if (reply !== undefined && "hang" in reply) {
					this.hanging.add(() => res.destroy());
					return;
				}
				const status = reply?.status ?? 200;
				const json = reply === undefined ? this.answer(recorded) : reply.json;
				res.writeHead(status, { "content-type": "application/json", ...(reply?.headers ?? {}) });
				res.end(reply?.raw ?? JSON.stringify(json));
			});
		});
		await new Promise<void>((done) => this.server?.listen(0, "127.0.0.1", done));
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		for (const end of this.hanging) end();
		this.server?.closeAllConnections();
		await new Promise<void>((done) => this.server?.close(() => done()));
	}

	private answer(request: Recorded): unknown {
		const move = this.move(request);
		if (request.path.endsWith("/messages")) {
			const content = [
				...(move.text === undefined ? [] : [{ type: "text", text: move.text }]),
				...(move.tool === undefined
					? []
					: [{ type: "tool_use", id: "toolu_01", name: move.tool, input: move.arguments ?? {} }]),
			];
			return {
				id: "msg_01",
				type: "message",
				role: "assistant",
				model: request.body.model,
				content,
				stop_reason: move.tool === undefined ? "end_turn" : "tool_use",
				stop_sequence: null,
				usage: {
					input_tokens: 100,
					cache_creation_input_tokens: 50,
					cache_read_input_tokens: 1000,
					output_tokens: 20,
				},
			};
		}
		return {
			id: "chatcmpl-1",
			object: "chat.completion",
			created: 1,
			model: request.body.model,
			choices: [
				{
					index: 0,
					message: {
						role: "assistant",
						content: move.text ?? null,
						...(move.tool === undefined
							? {}
							: {
									tool_calls: [
										{
											id: "call_1",
											type: "function",
											function: {
												name: move.tool,
												arguments: JSON.stringify(move.arguments ?? {}),
											},
										},
									],
								}),
					},
					finish_reason: move.tool === undefined ? "stop" : "tool_calls",
				},
			],
			usage: {
				prompt_tokens: 1100,
				completion_tokens: 20,
				total_tokens: 1120,
				prompt_tokens_details: { cached_tokens: 1000 },
			},
		};
	}
}

/** The Anthropic key {@link fakeProviderEachTest} puts in the environment. */
export const ANTHROPIC_TEST_KEY = "sk-ant-test-KEY-77c2";

/**
 * The spec sets' move (test/spec/templates): a read under v1's harness, an
 * answer in text under v2's, so that every call asked under both flips.
 */
export const readUnlessV2 = (r: Recorded): Move =>
	JSON.stringify(r.body).includes("spec harness v2")
		? { text: "It says hello." }
		: { tool: "read", arguments: { path: "a.txt" } };

/**
 * A fake provider started before each test of the file and stopped after
 * it, answering `move`, with test keys and no base URL of the SDKs' own in
 * the environment; read `fake` and `url` inside a test.
 */
export function fakeProviderEachTest(move: (request: Recorded) => Move = readUnlessV2): {
	readonly fake: FakeProvider;
	readonly url: string;
} {
	let fake: FakeProvider | undefined;
	let url = "";
	beforeEach(async () => {
		fake = new FakeProvider();
		url = await fake.start();
		fake.move = move;
		vi.stubEnv("ANTHROPIC_API_KEY", ANTHROPIC_TEST_KEY);
		vi.stubEnv("OPENAI_API_KEY", "sk-test-KEY-77c2");
		vi.stubEnv("ANTHROPIC_BASE_URL", "");
		vi.stubEnv("OPENAI_BASE_URL", "");
	});
	afterEach(async () => {
		vi.unstubAllEnvs();
		await fake?.stop();
	});
	return {
		get fake() {
			if (fake === undefined) throw new Error("the fake provider runs only inside a test");
			return fake;
		},
		get url() {
			return url;
		},
	};
}
