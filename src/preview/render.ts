/**
 * One session rendered for the page, measured as `inspect` measures it: the
 * system prompt cut into its sections, each labelled with the template that
 * fills it (and its parts), and the messages as the model gets them, framed
 * ones labelled with their framing template. A failure becomes a located
 * error view, never an exception.
 */
import { ContextError } from "../errors.js";
import { type MeasuredSession, measureLoaded } from "../measure/session.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import { contentOf } from "../text/content.js";
import type { FailedView, MessageView, SectionView, ViewPayload } from "./protocol.js";
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
			workspace.tokenizer,
			setId === "" ? {} : { templateVersion: setId },
		);
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
			chars: m.chars,
			tokens: m.tokens,
			...optional("budget", m.budget),
			images: m.images,
			imageTokens: m.imageTokens,
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
