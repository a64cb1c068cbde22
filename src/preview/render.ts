/**
 * One session rendered for the page, measured as `inspect` measures it: the
 * system prompt cut into its sections, each labelled with the template that
 * fills it (and its parts), and the messages as the model gets them, framed
 * ones labelled with their framing template, block by block (text,
 * thinking, tool calls, images). A failure becomes a located error view,
 * never an exception.
 */
import { ContextError } from "../errors.js";
import { type MeasuredSession, measureLoaded } from "../measure/session.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import { asText, contentOf } from "../text/content.js";
import { jsonText } from "../text/json-writer.js";
import type { BlockView, FailedView, MessageView, SectionView, ViewPayload } from "./protocol.js";
import type { SessionCatalog } from "./sessions.js";
import type { Workspace } from "./workspace.js";

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
	let measured: MeasuredSession;
	try {
		measured = measureLoaded(
			workspace.current,
			entry.file,
			workspace.units,
			setId === "" ? workspace.overrides : { ...workspace.overrides, templateVersion: setId },
		);
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		const templates = workspace.isTemplateError(error);
		const title =
			error.code === "unknown_template_version"
				? "No such template set"
				: templates
					? "The templates do not build"
					: "The session does not load";
		return failed(
			generation,
			templates ? "templates" : "session",
			title,
			workspace.diagnosticsOf(error),
		);
	}
	const { bundle, size } = measured;
	const version = bundle.meta.templateVersion;
	const prompt = bundle.systemPrompt;
	const sections = size.systemPrompt.sections.map(
		(s): SectionView => ({
			name: s.name,
			text: prompt.slice(s.start, s.end),
			chars: s.chars,
			tokens: s.tokens,
			...optional("budget", s.budget),
			template: workspace.templatePlace(version, s.template),
			...optional("skeleton", workspace.skeletonPlace(version, `<${s.name}>`)),
			parts: (s.parts ?? []).map((p) => ({
				...workspace.templatePlace(version, p.template),
				name: p.template,
				depth: p.depth,
				chars: p.chars,
				tokens: p.tokens,
			})),
		}),
	);
	const convert = workspace.current.service.converter(bundle);
	const messages = size.messages.map((m): MessageView => {
		const message = bundle.messages[m.index] as ContextMessage;
		const llm = convert(m.index) as LlmMessage;
		return {
			index: m.index,
			role: m.role,
			kind: m.kind,
			storedRole: m.source,
			entryId: m.entryId,
			...optional("label", labelOf(message)),
			...(m.template === undefined
				? {}
				: { framing: { name: m.template, ...workspace.templatePlace(version, m.template) } }),
			text: contentOf(llm.content).text,
			blocks: blocksOf(llm.content),
			chars: m.chars,
			tokens: m.tokens,
			...optional("budget", m.budget),
			images: m.images,
			imageTokens: m.imageTokens,
			...optional("virtualized", m.virtualized),
		};
	});
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
			sessionSet: setId === "" ? version : sessionSetOf(workspace, entry.file),
		},
		tokenizer: { name: size.tokenizer.name, label: size.tokenizer.label },
		systemPrompt: {
			chars: size.systemPrompt.chars,
			tokens: size.systemPrompt.tokens,
			...optional("budget", size.systemPrompt.budget),
			sections,
		},
		messages,
		total: size.total,
		cacheStable: size.cacheStable,
		recordedUsage: size.recordedUsage,
		diagnostics: bundle.meta.diagnostics.map((d) => workspace.view(d)),
	};
}

/** The set `file` renders with when none is asked for (the session is open: no file is read again). */
function sessionSetOf(workspace: Workspace, file: string): string | null {
	try {
		return workspace.current.service.loadSync(file).meta.templateVersion;
	} catch (error) {
		if (error instanceof ContextError) return null; // its pinned set does not build
		throw error;
	}
}

/** A message's content block by block, as the model gets it. */
function blocksOf(content: unknown): BlockView[] {
	if (!Array.isArray(content)) return [{ type: "text", text: asText(content) }];
	return content.map((block: unknown): BlockView => {
		const b = (block ?? {}) as Record<string, unknown>;
		switch (b.type) {
			case "text":
				return { type: "text", text: asText(b.text) };
			case "thinking":
				return { type: "thinking", text: asText(b.thinking) };
			case "toolCall":
				return { type: "toolCall", name: asText(b.name), text: jsonText(b.arguments ?? {}) };
			case "image":
				return { type: "image", text: asText(b.mimeType) };
			default:
				return { type: "other", text: jsonText(block) };
		}
	});
}

/** The tool of a tool result, the type of a custom message. */
function labelOf(message: ContextMessage): string | undefined {
	if (message.role === "toolResult" && "toolName" in message) return message.toolName;
	if (message.role === "custom" && "customType" in message) return message.customType;
	return undefined;
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
