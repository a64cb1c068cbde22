/** `eval`, declared: its options and help (the body is ../eval.ts, loaded when it runs). */
import { DEFAULT_TIMEOUT_MS, MAX_RETRIES } from "../../eval/settings.js";
import {
	CORPUS,
	output,
	PRICES,
	REQUEST,
	SET,
	STRICTNESS,
	TEMPLATES,
	TOOLS,
} from "../option-groups.js";
import { declareCommand } from "../options.js";

export const EVAL = declareCommand({
	name: "eval",
	summary: "ask a model again at real calls, under a changed set",
	synopsis: "<session.jsonl|DIR>... --model <provider>:<model-id> [options]",
	args: { name: "<session.jsonl|DIR>", count: "some" },
	description: `Asks a model again at calls of real sessions: for each chosen call (an
assistant message of the active branch, numbered as replay numbers them),
the context the compiler gives at that point (the bundle ending at the
message's parent, as render --leaf gives it) under the set named, sent to
the model; its answer is reported beside what the session did. With --vs,
the same under a second set, and the flips: calls whose chosen tool (or
text-only answer) differs between the sets. Claude Code and Codex sessions
are read directly. DIR is searched for .jsonl files; their requests are
prepared on every core (--jobs), then sent --concurrency at a time.`,
	options: {
		model: {
			type: "string",
			value: "P:ID",
			required: true,
			help: "anthropic:<model> (Messages API) or openai:<model> (Chat Completions); the key comes from ANTHROPIC_API_KEY or OPENAI_API_KEY",
		},
		...REQUEST,
		...SET,
		...TEMPLATES,
		vs: {
			type: "string",
			value: "V|DIR",
			help: "the same calls under a second set (a set of the templates folder, or another templates folder)",
		},
		calls: {
			type: "string",
			value: "WHICH",
			default: "last",
			help: "last, all, 3,7,12 (call indices) or sample:N (N calls per session, picked with --seed)",
		},
		seed: {
			type: "integer",
			value: "S",
			min: 0,
			help: "the seed of sample:N (the report prints it, so a run can be repeated)",
			defaultHelp: "a random one",
		},
		samples: {
			type: "integer",
			value: "K",
			min: 1,
			default: 1,
			help: "ask K times per call and set, to see how much the answer varies",
		},
		assert: {
			type: "path",
			value: "FILE",
			help: "assertions (YAML): tests: [{name, calls?, assert: [{type, value}]}]; see docs/eval.md",
		},
		...TOOLS,
		"max-cost": {
			type: "number",
			value: "DOLLARS",
			min: 0,
			help: "refuse to send when the estimate is over it",
		},
		...PRICES,
		concurrency: {
			type: "integer",
			value: "N",
			min: 1,
			default: 4,
			help: "requests at a time",
		},
		cache: {
			type: "path",
			value: "DIR",
			help: "the response cache",
			defaultHelp: "$XDG_CACHE_HOME/theway-context/eval, else ~/.cache/theway-context/eval",
		},
		"no-cache": { type: "boolean", conflicts: "cache", help: "neither read nor write the cache" },
		"dry-run": {
			type: "boolean",
			help: "write every request a run would send, one JSON line each (a session's first whole, each later one as what changed since the one before), and the estimate; send nothing",
		},
		...output(
			["text", "json", "junit", "markdown"],
			`text: a table per session and a summary
json: the report
junit: a test case per assertion per call
markdown: a report for a pull request`,
		),
		jobs: {
			...CORPUS.jobs,
			help: "worker threads preparing the requests (each chosen call's context, under each set); the report is the same whatever N",
		},
		out: {
			type: "path",
			value: "FILE",
			help: "write the report to FILE",
			defaultHelp: "standard output",
		},
		...STRICTNESS,
	},
	notes: `Requests are retried by the SDK ${MAX_RETRIES} times on 408, 409, 429, 5xx, a
dropped connection or a timeout (${DEFAULT_TIMEOUT_MS / 60_000} minutes per attempt),
with backoff honouring retry-after; a call that still fails is reported with
its error and the run goes on. Ctrl-C stops sending and writes the report
of what was answered.

Exit codes: 0 every call answered and every assertion passed; 1 an
assertion failed, a call or a session failed, the run was stopped, or the
estimate is over --max-cost; 2 wrong usage.`,
});
