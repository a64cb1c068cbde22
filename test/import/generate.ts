/**
 * Valid Claude Code and Codex sources built from a list of steps (a prompt,
 * a response over several records with parallel calls, a compaction, a
 * rollback…), for the importer's property. Each step names the record kinds
 * it writes, so the property can assert its generator reaches every one.
 */
import fc from "fast-check";

type Rec = Record<string, unknown>;

/** A generated source: its text and the record kinds it holds. */
export interface Source {
	text: string;
	kinds: string[];
	records: number;
}

export const CLAUDE_STEPS = [
	"prompt",
	"response",
	"attachment",
	"bookkeeping",
	"title",
	"compaction",
	"sidechain",
	"unknown",
	"rewind",
] as const;
export const CODEX_STEPS = [
	"user",
	"assistant",
	"reasoning",
	"function",
	"custom-tool",
	"local-shell",
	"developer",
	"environment",
	"model",
	"compacted",
	"encrypted",
	"rollback",
	"event",
	"unknown",
	"tokens",
] as const;

const time = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

/** A Claude Code transcript from its steps; `calls` gives each response's tool-call count. */
export function claudeSource(
	steps: readonly { kind: (typeof CLAUDE_STEPS)[number]; calls: number; split: number }[],
): Source {
	const out: Rec[] = [];
	const kinds: string[] = [];
	let n = 0;
	let last: string | null = null;
	const convs: string[] = [];
	const base = (type: string, parent: string | null): Rec => {
		n++;
		return {
			parentUuid: parent,
			isSidechain: false,
			type,
			uuid: `u${n}`,
			timestamp: time(n),
			sessionId: "gen",
			cwd: "/gen",
		};
	};
	const add = (r: Rec, kind: string) => {
		out.push(r);
		kinds.push(kind);
		if (typeof r.uuid === "string" && r.isSidechain !== true) last = r.uuid;
		return r;
	};
	for (const [k, step] of steps.entries()) {
		switch (step.kind) {
			case "prompt":
			case "rewind": {
				const parent =
					step.kind === "rewind" && convs.length > 1
						? (convs[Math.floor(convs.length / 2)] as string)
						: last;
				const r = add(
					{ ...base("user", parent), message: { role: "user", content: `prompt ${k}` } },
					step.kind,
				);
				convs.push(r.uuid as string);
				break;
			}
			case "response": {
				const id = `msg${k}`;
				const parts: Rec[][] = [[{ type: "text", text: `answer ${k}` }]];
				for (let c = 0; c < step.calls; c++)
					parts.push([{ type: "tool_use", id: `call${k}-${c}`, name: "Bash", input: { c } }]);
				const holders: string[] = [];
				let parent: string | null = last;
				parts.forEach((content, p) => {
					const split = p === 0 && step.split > 1;
					const r = add(
						{
							...base("assistant", parent),
							message: {
								id,
								role: "assistant",
								model: k % 3 === 0 ? "m-a" : "m-b",
								content,
								usage: { input_tokens: 1, output_tokens: 1 },
							},
						},
						split ? "response (split)" : "response",
					);
					parent = r.uuid as string;
					holders.push(parent);
				});
				// each result hangs on the record that holds its call, the last one first: pseudo-branches
				for (let c = step.calls - 1; c >= 0; c--) {
					add(
						{
							...base("user", holders[c + 1] as string),
							message: {
								role: "user",
								content: [
									{
										type: "tool_result",
										tool_use_id: `call${k}-${c}`,
										content: "ok",
										is_error: c === 1,
									},
								],
							},
						},
						step.calls > 1 ? "parallel result" : "result",
					);
				}
				convs.push(last as unknown as string);
				break;
			}
			case "attachment":
				add({ ...base("attachment", last), attachment: { type: "hook_success" } }, "attachment");
				break;
			case "bookkeeping":
				add({ type: "file-history-snapshot", messageId: `x${k}`, snapshot: {} }, "bookkeeping");
				break;
			case "title":
				add({ type: "custom-title", customTitle: `title ${k}`, sessionId: "gen" }, "title");
				break;
			case "compaction": {
				const b = add(
					{
						...base("system", null),
						subtype: "compact_boundary",
						logicalParentUuid: last,
						compactMetadata: { preTokens: 10 },
					},
					"compact boundary",
				);
				add(
					{
						...base("user", b.uuid as string),
						isCompactSummary: true,
						message: { role: "user", content: `summary ${k}` },
					},
					"compact summary",
				);
				break;
			}
			case "sidechain":
				add(
					{
						...base("user", null),
						isSidechain: true,
						agentId: "ag",
						message: { role: "user", content: "side" },
					},
					"sidechain",
				);
				break;
			case "unknown":
				add({ type: `future-${k}`, sessionId: "gen" }, "unknown");
				break;
		}
	}
	return { text: `${out.map((r) => JSON.stringify(r)).join("\n")}\n`, kinds, records: out.length };
}

/** A Codex rollout from its steps. */
export function codexSource(
	steps: readonly { kind: (typeof CODEX_STEPS)[number]; n: number }[],
	legacy: boolean,
): Source {
	const out: Rec[] = [];
	const kinds: string[] = [];
	let i = 0;
	const env = (type: string, payload: Rec, kind: string) => {
		i++;
		out.push(legacy && type === "response_item" ? payload : { timestamp: time(i), type, payload });
		kinds.push(kind);
	};
	if (legacy) {
		out.push({ id: "gen-legacy", timestamp: time(0) });
		kinds.push("legacy header");
	} else
		env(
			"session_meta",
			{ id: "gen", timestamp: time(0), cwd: "/gen", model_provider: "openai" },
			"session_meta",
		);
	const text = (role: string, t: string) => ({
		type: "message",
		role,
		content: [{ type: role === "assistant" ? "output_text" : "input_text", text: t }],
	});
	for (const [k, step] of steps.entries()) {
		if (
			legacy &&
			![
				"user",
				"assistant",
				"reasoning",
				"function",
				"custom-tool",
				"local-shell",
				"developer",
				"environment",
			].includes(step.kind)
		)
			continue;
		switch (step.kind) {
			case "user":
				env("response_item", text("user", `ask ${k}`), "user");
				break;
			case "assistant":
				env("response_item", text("assistant", `say ${k}`), "assistant");
				break;
			case "reasoning":
				env(
					"response_item",
					{
						type: "reasoning",
						summary: step.n % 2 ? [{ type: "summary_text", text: "why" }] : [],
						encrypted_content: "x",
					},
					"reasoning",
				);
				break;
			case "function":
				env(
					"response_item",
					{
						type: "function_call",
						name: "shell",
						arguments: JSON.stringify({ command: ["ls"] }),
						call_id: `f${k}`,
					},
					"function_call",
				);
				env(
					"response_item",
					{
						type: "function_call_output",
						call_id: `f${k}`,
						output:
							step.n % 2
								? JSON.stringify({ output: "o", metadata: { exit_code: step.n } })
								: "plain",
					},
					"function_call_output",
				);
				break;
			case "custom-tool":
				env(
					"response_item",
					{ type: "custom_tool_call", name: "apply_patch", input: "patch", call_id: `c${k}` },
					"custom_tool_call",
				);
				env(
					"response_item",
					{
						type: "custom_tool_call_output",
						call_id: `c${k}`,
						output: `Exit code: ${step.n}\nOutput:\nok`,
					},
					"custom_tool_call_output",
				);
				break;
			case "local-shell":
				env(
					"response_item",
					{
						type: "local_shell_call",
						call_id: `l${k}`,
						status: "completed",
						action: { type: "exec", command: ["pwd"] },
					},
					"local_shell_call",
				);
				env(
					"response_item",
					{
						type: "function_call_output",
						call_id: `l${k}`,
						output: [{ type: "input_text", text: "/" }],
					},
					"local_shell output",
				);
				break;
			case "developer":
				env("response_item", text("developer", "rules"), "developer");
				break;
			case "environment":
				env(
					"response_item",
					text("user", "<environment_context>x</environment_context>"),
					"environment_context",
				);
				break;
			case "model":
				env(
					"turn_context",
					{ model: `gpt-${step.n}`, effort: step.n % 2 ? "low" : "high" },
					"turn_context",
				);
				break;
			case "compacted":
				env("compacted", { message: `summary ${k}` }, "compacted");
				break;
			case "encrypted":
				env(
					"compacted",
					{ message: "", replacement_history: [{ type: "compaction", encrypted_content: "e" }] },
					"encrypted compaction",
				);
				break;
			case "rollback":
				env(
					"event_msg",
					{ type: "thread_rolled_back", num_turns: step.n % 3 },
					"thread_rolled_back",
				);
				break;
			case "event":
				env("event_msg", { type: "task_started" }, "event");
				break;
			case "unknown":
				env(`future_${k}`, { x: 1 }, "unknown");
				break;
			case "tokens":
				env(
					"event_msg",
					{
						type: "token_count",
						info: { last_token_usage: { input_tokens: 3, output_tokens: 2 } },
					},
					"token_count",
				);
				break;
		}
	}
	return { text: `${out.map((r) => JSON.stringify(r)).join("\n")}\n`, kinds, records: out.length };
}

export const claudeSteps = fc.array(
	fc.record({
		kind: fc.constantFrom(...CLAUDE_STEPS),
		calls: fc.integer({ min: 0, max: 3 }),
		split: fc.integer({ min: 1, max: 2 }),
	}),
	{ minLength: 1, maxLength: 14 },
);
export const codexSteps = fc.array(
	fc.record({ kind: fc.constantFrom(...CODEX_STEPS), n: fc.integer({ min: 0, max: 4 }) }),
	{ minLength: 1, maxLength: 16 },
);
