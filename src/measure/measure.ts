import { framingOf } from "../render/convert.js";
import { bundleConverter } from "../render/stubs.js";
import type { ContextBundle } from "../service/bundle.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import type { TemplateSet, TemplateSetSource } from "../templates/compile.js";
import { STUB } from "../templates/set.js";
import { contentOf } from "../text/content.js";
import { hiddenReasoning, withoutThinking } from "../text/reasoning.js";
import type { Tokenizer } from "../text/tokenizer.js";
import { SECTIONS, type SystemView } from "../view/schema.js";
import { templateBudgets } from "./budget.js";
import { traceSystemPrompt } from "./trace.js";

export interface Size {
	chars: number;
	tokens: number;
}

/** A partial's output inside a section. */
export interface PartSize extends Size {
	template: string;
	start: number;
	end: number;
	/** 1 for a partial the section template calls, 2 for one that partial calls… */
	depth: number;
	budget?: number;
}

/** One system-prompt section, from its opening tag to its closing tag, both included. */
export interface SectionSize extends Size {
	name: string;
	/** The template that fills it. */
	template: string;
	/** Offsets in the system prompt: `systemPrompt.slice(start, end)` is the section. */
	start: number;
	end: number;
	/** The partials it is made of, when the templates call any (and the view was given). */
	parts?: PartSize[];
	budget?: number;
}

export type MessageKind = "user" | "assistant" | "toolResult" | "summary" | "custom";

/** One provider-ready message. */
export interface MessageSize extends Size {
	/** Its index in `bundle.messages`. */
	index: number;
	/** The provider role: user, assistant or toolResult. */
	role: string;
	kind: MessageKind;
	/** The role the bundle holds it with (`compactionSummary`, `bashExecution`, …). */
	source: string;
	entryId: string;
	/** The first line of its text, shortened. */
	preview: string;
	images: number;
	/** Estimated tokens of its images (not in `tokens`). */
	imageTokens: number;
	/**
	 * The recorded size of its hidden reasoning (Codex's), in `tokens`
	 * instead of its thinking's summary text, as replay counts it.
	 */
	reasoning?: number;
	/** The framing template that wrote it, for a framed message (`tool-result-stub` for a stub). */
	template?: string;
	budget?: number;
	/** For a tool result that reaches the model as a stub: its size whole, and the tokens saved. */
	virtualized?: { chars: number; tokens: number; saved: number };
}

export interface UsageRecord {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
	total?: number;
}

export interface ContextSize {
	tokenizer: { name: string; label: string; exact: boolean };
	systemPrompt: Size & { sections: SectionSize[]; budget?: number };
	messages: MessageSize[];
	/** System prompt and messages, images not included. */
	total: Size;
	images: { count: number; tokens: number };
	/** What appending entries cannot change: the system prompt and every message but the last. */
	cacheStable: { tokens: number; messages: number };
	/** The last assistant message's recorded `usage`, if any: the provider's own count. */
	recordedUsage: UsageRecord | null;
	/**
	 * Tool results sent as stubs: how many, the tokens of the whole context
	 * had they been sent whole, and the tokens saved (`before - total.tokens`).
	 */
	virtualized: { results: number; before: number; saved: number };
}

export interface MeasureOptions {
	/** The set's sources: enables budgets. */
	source?: TemplateSetSource;
	/** The view the prompt was rendered from; with `source`, enables the parts of each section. */
	view?: SystemView;
	/** Each message as the model gets it, by index (default: the bundle's listing applied afresh). */
	convert?: (index: number) => LlmMessage | undefined;
}

const PREVIEW_CHARS = 80;

/** Measures `bundle` as `set` renders it, counting with `tokenizer`. */
export function measureContext(
	bundle: ContextBundle,
	set: TemplateSet,
	tokenizer: Tokenizer,
	options: MeasureOptions = {},
): ContextSize {
	const size = (text: string): Size => ({ chars: text.length, tokens: tokenizer.count(text) });
	const budgets = options.source === undefined ? new Map() : templateBudgets(options.source);
	const budgetOf = (template: string) =>
		budgets.has(template) ? { budget: budgets.get(template)?.tokens as number } : {};
	const prompt = bundle.systemPrompt;
	const spans =
		options.source !== undefined && options.view !== undefined
			? traceSystemPrompt(options.source, options.view, prompt)
			: undefined;
	const sections = sectionSpans(prompt).map((s): SectionSize => {
		const parts = (spans ?? [])
			.filter((p) => p.depth > 0 && p.start >= s.start && p.end <= s.end)
			.map(
				(p): PartSize => ({
					template: p.template,
					start: p.start,
					end: p.end,
					depth: p.depth,
					...size(prompt.slice(p.start, p.end)),
					...budgetOf(p.template),
				}),
			);
		return {
			name: s.name,
			template: s.name,
			start: s.start,
			end: s.end,
			...size(prompt.slice(s.start, s.end)),
			...(parts.length > 0 ? { parts } : {}),
			...budgetOf(s.name),
		};
	});
	const messages: MessageSize[] = [];
	const convert = options.convert ?? bundleConverter(bundle, set);
	const stubbed = new Set(bundle.meta.virtualized.map((v) => v.index));
	bundle.messages.forEach((message, index) => {
		const llm = convert(index);
		if (llm === undefined) return;
		const m = measureMessage(message, llm, index, bundle.entryIds[index] ?? "", size, budgetOf);
		if (stubbed.has(index)) {
			const whole = size(contentOf((message as LlmMessage).content).text);
			Object.assign(m, { template: STUB, ...budgetOf(STUB) });
			m.virtualized = { ...whole, saved: whole.tokens - m.tokens };
		}
		messages.push(m);
	});
	const saved = messages.reduce((sum, m) => sum + (m.virtualized?.saved ?? 0), 0);
	const system = { ...size(prompt), sections, ...budgetOf("system") };
	const messageTokens = messages.reduce((sum, m) => sum + m.tokens, 0);
	const last = messages.at(-1);
	return {
		tokenizer: { name: tokenizer.name, label: tokenizer.label, exact: tokenizer.exact },
		systemPrompt: system,
		messages,
		total: {
			chars: system.chars + messages.reduce((sum, m) => sum + m.chars, 0),
			tokens: system.tokens + messageTokens,
		},
		images: {
			count: messages.reduce((sum, m) => sum + m.images, 0),
			tokens: messages.reduce((sum, m) => sum + m.imageTokens, 0),
		},
		cacheStable: {
			tokens: system.tokens + messageTokens - (last?.tokens ?? 0),
			messages: Math.max(0, messages.length - 1),
		},
		recordedUsage: recordedUsage(bundle.messages),
		virtualized: {
			results: messages.filter((m) => m.virtualized !== undefined).length,
			before: system.tokens + messageTokens + saved,
			saved,
		},
	};
}

function measureMessage(
	message: ContextMessage,
	llm: LlmMessage,
	index: number,
	entryId: string,
	size: (text: string) => Size,
	budgetOf: (template: string) => { budget?: number },
): MessageSize {
	const { text, images } = contentOf(llm.content);
	const template = framingOf(message);
	const reasoning = hiddenReasoning(llm);
	const counted =
		reasoning === undefined ? size(text) : size(contentOf(withoutThinking(llm.content)).text);
	return {
		index,
		role: llm.role,
		kind: kindOf(message.role),
		source: message.role,
		entryId,
		preview: previewOf(text),
		images: images.length,
		imageTokens: images.reduce((sum, i) => sum + i.tokens, 0),
		chars: counted.chars,
		tokens: counted.tokens + (reasoning ?? 0),
		...(reasoning === undefined ? {} : { reasoning }),
		...(template === undefined ? {} : { template, ...budgetOf(template) }),
	};
}

function kindOf(role: string): MessageKind {
	switch (role) {
		case "user":
		case "bashExecution":
			return "user";
		case "assistant":
			return "assistant";
		case "toolResult":
			return "toolResult";
		case "custom":
			return "custom";
		default:
			return "summary";
	}
}

/** The first non-blank line, whitespace collapsed, at most {@link PREVIEW_CHARS} characters. */
export function previewOf(text: string): string {
	const head = text.slice(0, 4 * PREVIEW_CHARS);
	const line = (head.split("\n").find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
	return line.length > PREVIEW_CHARS || (text.length > head.length && line === head.trim())
		? `${line.slice(0, PREVIEW_CHARS - 1)}…`
		: line;
}

/** Each section's span, from `<name>` to `</name>` (the rendered prompt holds them alone on their lines). */
export function sectionSpans(prompt: string): { name: string; start: number; end: number }[] {
	const out: { name: string; start: number; end: number }[] = [];
	for (const name of SECTIONS) {
		const open = `<${name}>`;
		const start = prompt.startsWith(open) ? 0 : prompt.indexOf(`\n${open}\n`) + 1;
		if (start === 0 && !prompt.startsWith(open)) continue;
		const closing = prompt.indexOf(`\n</${name}>`, start);
		if (closing === -1) continue;
		out.push({ name, start, end: closing + name.length + 4 });
	}
	return out;
}

function recordedUsage(messages: readonly ContextMessage[]): UsageRecord | null {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i] as { role: string; usage?: unknown };
		if (m.role !== "assistant") continue;
		const u = m.usage;
		if (u === null || typeof u !== "object") return null;
		const r = u as Record<string, unknown>;
		const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
		const out: UsageRecord = {};
		const fields = [
			["input", r.input],
			["output", r.output],
			["cacheRead", r.cacheRead],
			["cacheWrite", r.cacheWrite],
			["total", r.totalTokens ?? r.total],
		] as const;
		for (const [key, value] of fields) {
			const n = num(value);
			if (n !== undefined) out[key] = n;
		}
		return Object.keys(out).length === 0 ? null : out;
	}
	return null;
}
