/**
 * One session rendered for the page: the system prompt cut into its
 * sections, each labelled with the template that fills it, and the messages
 * as the model gets them, framed ones labelled with their framing template.
 * A failure becomes a located error view, never an exception.
 */
import { ContextError } from "../errors.js";
import { convertMessage } from "../render/convert.js";
import type { ContextBundle } from "../service.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import type { TemplateSet } from "../templates/compile.js";
import { SECTIONS } from "../view/schema.js";
import type { FailedView, MessageView, SectionView, ViewPayload } from "./protocol.js";
import type { SessionCatalog } from "./sessions.js";
import type { Workspace } from "./workspace.js";

/** The framing template of each stored role that is not passed through as it is. */
const FRAMINGS: Record<string, { template: string; kind: string }> = {
	collapse_context: { template: "collapse-context", kind: "summary" },
	compactionSummary: { template: "compaction-summary", kind: "summary" },
	branchSummary: { template: "branch-summary", kind: "summary" },
	custom: { template: "custom-message", kind: "custom" },
	bashExecution: { template: "bash-execution", kind: "custom" },
};

/** Renders session `sessionId` with set `setId` (`""`: the one the session pins). */
export function renderView(
	workspace: Workspace,
	catalog: SessionCatalog,
	sessionId: string,
	setId: string,
): ViewPayload {
	const generation = workspace.generation;
	const entry = catalog.get(sessionId);
	if (entry === undefined) {
		return failed(generation, "request", "Unknown session", [
			{ severity: "error", code: "io", message: "no session with this id", file: "" },
		]);
	}
	const service = workspace.current;
	let bundle: ContextBundle;
	let set: TemplateSet;
	try {
		bundle = service.loadSync(entry.file, setId === "" ? {} : { templateVersion: setId });
		set = service.templateSet(bundle.meta.templateVersion);
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		const templates = workspace.isTemplateError(error);
		return failed(
			generation,
			templates ? "templates" : "session",
			templates ? "The templates do not build" : "The session does not load",
			workspace.diagnosticsOf(error),
		);
	}
	const version = bundle.meta.templateVersion;
	const sections = cutSections(bundle.systemPrompt).map(
		(s): SectionView => ({
			...s,
			chars: s.text.length,
			template: workspace.templatePlace(version, s.name),
			...optional("skeleton", workspace.skeletonPlace(version, `<${s.name}>`)),
		}),
	);
	const messages: MessageView[] = [];
	bundle.messages.forEach((message, index) => {
		const llm = convertMessage(message, set);
		if (llm === undefined) return;
		messages.push(messageView(workspace, version, message, llm, index, bundle.entryIds[index]));
	});
	const promptChars = bundle.systemPrompt.length;
	return {
		ok: true,
		generation,
		session: {
			id: sessionId,
			sessionId: bundle.meta.sessionId,
			leafId: bundle.meta.leafId,
			entryCount: bundle.meta.entryCount,
		},
		set: {
			version,
			fingerprint: bundle.meta.templateFingerprint,
			pinned: setId === "" ? version : null,
		},
		systemPrompt: { chars: promptChars, sections },
		messages,
		total: { chars: promptChars + messages.reduce((n, m) => n + m.chars, 0) },
		diagnostics: bundle.meta.diagnostics.map((d) => workspace.view(d)),
	};
}

function messageView(
	workspace: Workspace,
	version: string,
	message: ContextMessage,
	llm: LlmMessage,
	index: number,
	entryId: string | undefined,
): MessageView {
	const stored = message.role;
	const framing = FRAMINGS[stored];
	const text = llmText(llm);
	const label =
		stored === "toolResult" && "toolName" in message
			? message.toolName
			: stored === "custom" && "customType" in message
				? message.customType
				: undefined;
	return {
		index,
		role: llm.role,
		kind: framing?.kind ?? stored,
		storedRole: stored,
		entryId: entryId ?? "",
		...optional("label", label),
		...(framing === undefined
			? {}
			: {
					framing: {
						name: framing.template,
						...workspace.templatePlace(version, framing.template),
					},
				}),
		text,
		chars: text.length,
		images: countImages(llm.content),
	};
}

/** The sections of a rendered prompt: each from its opening tag to its closing tag. */
export function cutSections(prompt: string): { name: string; text: string }[] {
	const out: { name: string; text: string }[] = [];
	for (const name of SECTIONS) {
		const start = prompt.indexOf(`<${name}>`);
		const close = `</${name}>`;
		const end = prompt.indexOf(close, start);
		if (start < 0 || end < 0) continue;
		out.push({ name, text: prompt.slice(start, end + close.length) });
	}
	return out;
}

type Block = { type?: unknown; [key: string]: unknown };

/** A provider-ready message's text: text and thinking, tool calls as name and JSON arguments. */
function llmText(message: LlmMessage): string {
	const { content } = message;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return (content as Block[])
		.map((block) => {
			switch (block.type) {
				case "text":
					return String(block.text ?? "");
				case "thinking":
					return `[thinking]\n${String(block.thinking ?? "")}`;
				case "toolCall":
					return `[tool call] ${String(block.name)} ${JSON.stringify(block.arguments ?? {})}`;
				case "image":
					return `[image ${String(block.mimeType ?? "")}]`;
				default:
					return `[${String(block.type)}]`;
			}
		})
		.join("\n");
}

function countImages(content: unknown): number {
	return Array.isArray(content) ? (content as Block[]).filter((b) => b.type === "image").length : 0;
}

function failed(
	generation: number,
	kind: FailedView["kind"],
	title: string,
	diagnostics: FailedView["diagnostics"],
): FailedView {
	return { ok: false, generation, kind, title, diagnostics };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
	return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
