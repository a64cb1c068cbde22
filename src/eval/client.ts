/**
 * Sending a request body through the provider's official SDK and reading
 * its answer: `@anthropic-ai/sdk` (Messages API) and `openai` (Chat
 * Completions), each imported only when a request is sent. The SDKs do the
 * retrying: 408, 409, 429, 5xx, a dropped connection and a timeout are
 * retried `MAX_RETRIES` times with exponential backoff (0.5 s doubling, at
 * most 8 s), honouring `retry-after` and `retry-after-ms`. The key is given
 * to the SDK and to nothing else; an error's text has it blanked out in
 * case an endpoint echoes it.
 */
import { z } from "zod";
import type { ToolCall } from "./contexts.js";
import type { Usage } from "./cost.js";
import { DEFAULT_TIMEOUT_MS, MAX_RETRIES, type Provider, type RequestBody } from "./settings.js";

export { DEFAULT_TIMEOUT_MS, MAX_RETRIES };

/** A model's answer, the provider's shapes read into one. */
export interface Answer {
	text: string;
	toolCalls: ToolCall[];
	stopReason: string | null;
	usage: Usage;
}

/** Sends one request body; rejects with an {@link EvalRequestError} (its message safe to show). */
export type Send = (body: RequestBody, signal: AbortSignal) => Promise<Answer>;

/** A request that failed for good (after the SDK's retries), or was stopped. */
export class EvalRequestError extends Error {
	override readonly name = "EvalRequestError";
	constructor(
		message: string,
		/** Whether the run was stopped (Ctrl-C), not the request failed. */
		readonly aborted = false,
	) {
		super(message);
	}
}

/** Where and how to send. */
export interface ClientOptions {
	provider: Provider;
	apiKey: string;
	/** The SDK's base URL (Anthropic's without `/v1`, OpenAI's with it); default: its variable, then its own. */
	baseUrl?: string;
	timeoutMs?: number;
	maxRetries?: number;
}

/** A sender for `options.provider`, its SDK loaded now. */
export async function createSender(options: ClientOptions): Promise<Send> {
	const common = {
		apiKey: options.apiKey,
		maxRetries: options.maxRetries ?? MAX_RETRIES,
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
	};
	// The key wherever it stands whole (not inside a word: a short key such as `ollama` or `k`).
	const whole =
		options.apiKey === ""
			? undefined
			: new RegExp(
					`(?<![\\w-])${options.apiKey.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`,
					"g",
				);
	const said = {
		redact: (text: string) => (whole === undefined ? text : text.replace(whole, "[key]")),
		retries: `after ${common.maxRetries + 1} attempts`,
		timedOut: `no answer within ${common.timeout < 10_000 ? `${common.timeout} ms` : `${Math.round(common.timeout / 1000)} s`}`,
	};
	if (options.provider === "anthropic") {
		const { default: Anthropic } = await import("@anthropic-ai/sdk");
		const client = new Anthropic(common);
		return guarded(options.provider, said, async (body, signal) =>
			anthropicAnswer(await client.messages.create(body as never, { signal })),
		);
	}
	const { default: OpenAI } = await import("openai");
	const client = new OpenAI(common);
	return guarded(options.provider, said, async (body, signal) =>
		openaiAnswer(await client.chat.completions.create(body as never, { signal })),
	);
}

/** `send` with every failure turned into an {@link EvalRequestError} whose text holds no key. */
function guarded(
	provider: Provider,
	said: { redact: (text: string) => string; retries: string; timedOut: string },
	send: Send,
): Send {
	return async (body, signal) => {
		// The SDKs add an abort listener to the signal they are given and keep it: each request
		// gets a signal of its own, tied to the run's for as long as the request lasts.
		const own = new AbortController();
		const stop = () => own.abort(signal.reason);
		if (signal.aborted) own.abort(signal.reason);
		else signal.addEventListener("abort", stop, { once: true });
		try {
			return await send(body, own.signal);
		} catch (error) {
			if (signal.aborted) throw new EvalRequestError("stopped before an answer came", true);
			const e = error as Error & { status?: unknown };
			const name = e?.constructor?.name ?? "Error";
			const text =
				error instanceof MalformedAnswer
					? error.message
					: error instanceof SyntaxError
						? `malformed ${provider} response: not JSON (${e.message})`
						: /Timeout/.test(name)
							? `request timed out: ${said.timedOut} (${said.retries})`
							: /Connection/.test(name)
								? `connection error: ${e.message} (${said.retries})`
								: typeof e?.status === "number"
									? e.message
									: `${name}: ${e?.message ?? String(error)}`;
			throw new EvalRequestError(said.redact(text));
		} finally {
			signal.removeEventListener("abort", stop);
		}
	};
}

/** A 200 whose body is not the provider's answer. */
class MalformedAnswer extends Error {}

const AnthropicMessage = z.object({
	content: z.array(z.looseObject({ type: z.string() })),
	stop_reason: z.string().nullable().optional(),
	usage: z.looseObject({
		input_tokens: z.number(),
		output_tokens: z.number(),
		cache_read_input_tokens: z.number().nullable().optional(),
		cache_creation_input_tokens: z.number().nullable().optional(),
	}),
});

/** A Messages API response as an answer. */
export function anthropicAnswer(response: unknown): Answer {
	const parsed = AnthropicMessage.safeParse(response);
	if (!parsed.success) throw malformed("anthropic", parsed.error);
	const m = parsed.data;
	const text = m.content
		.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []))
		.join("");
	const toolCalls = m.content.flatMap((b) =>
		b.type === "tool_use" && typeof b.name === "string"
			? [{ name: b.name, arguments: b.input ?? {} }]
			: [],
	);
	return {
		text,
		toolCalls,
		stopReason: m.stop_reason ?? null,
		usage: {
			input: m.usage.input_tokens,
			cacheRead: m.usage.cache_read_input_tokens ?? 0,
			cacheWrite: m.usage.cache_creation_input_tokens ?? 0,
			output: m.usage.output_tokens,
		},
	};
}

const OpenAICompletion = z.object({
	choices: z
		.array(
			z.object({
				message: z.object({
					content: z.string().nullable().optional(),
					tool_calls: z
						.array(
							z.looseObject({
								function: z.object({ name: z.string(), arguments: z.string().optional() }),
							}),
						)
						.nullable()
						.optional(),
				}),
				finish_reason: z.string().nullable().optional(),
			}),
		)
		.min(1),
	usage: z
		.object({
			prompt_tokens: z.number(),
			completion_tokens: z.number(),
			prompt_tokens_details: z
				.object({ cached_tokens: z.number().nullable().optional() })
				.nullable()
				.optional(),
		})
		.nullable()
		.optional(),
});

/**
 * A Chat Completions response as an answer: the first choice; the prompt's
 * cached tokens (`prompt_tokens_details.cached_tokens`) as cache reads, the
 * rest as input; a tool call's arguments parsed from their JSON (kept as the
 * text when it is not JSON).
 */
export function openaiAnswer(response: unknown): Answer {
	const parsed = OpenAICompletion.safeParse(response);
	if (!parsed.success) throw malformed("openai", parsed.error);
	const choice = parsed.data.choices[0] as z.infer<typeof OpenAICompletion>["choices"][number];
	const usage = parsed.data.usage;
	const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
	return {
		text: choice.message.content ?? "",
		toolCalls: (choice.message.tool_calls ?? []).map((c) => ({
			name: c.function.name,
			arguments: parseArguments(c.function.arguments ?? ""),
		})),
		stopReason: choice.finish_reason ?? null,
		usage: {
			input: (usage?.prompt_tokens ?? 0) - cached,
			cacheRead: cached,
			cacheWrite: 0,
			output: usage?.completion_tokens ?? 0,
		},
	};
}

function parseArguments(text: string): unknown {
	if (text.trim() === "") return {};
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function malformed(provider: Provider, error: z.ZodError): MalformedAnswer {
	const issue = error.issues[0];
	const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
	return new MalformedAnswer(
		`malformed ${provider} response${where}: ${issue?.message ?? "not an answer"}`,
	);
}
