/** `theway-context render`: a session log's context bundle, for people or programs. */

import { resolve } from "node:path";
import { STDIN } from "../log/read.js";
import type { LoadOptions } from "../service/bundle.js";
import { ContextService } from "../service/context-service.js";
import { TemplateRegistry } from "../templates/registry.js";
import { defineCommand } from "./command.js";
import { RENDER } from "./commands/render.js";
import { branchOptions, checkSetOption, guardLength, printJson } from "./io.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { printWarnings } from "./voice.js";

export const renderCommand = defineCommand(RENDER, async ({ values, positionals }, io) => {
	const [session] = positionals as [string];
	const { format } = values;
	// A one-off process: the file read with blocking reads (no round trips
	// through the thread pool), and only the set it renders with made ready.
	const registry = TemplateRegistry.for(values.templates);
	checkSetOption(registry, values["template-version"]);
	const service = new ContextService({ registry, strict: values.strict });
	const manifest = await readToolsOption(values.tools);
	const options: LoadOptions = {
		...branchOptions(values),
		...(values["no-virtualize"] === true ? { virtualize: false } : {}),
		...toolsView(manifest),
		...(values.memory === undefined ? {} : { memory: values.memory }),
		...(values.cwd === undefined ? {} : { cwd: values.cwd }),
	};
	if (format === "anthropic" || format === "openai") {
		const { renderRequest } = await import("./render-request.js");
		return await renderRequest(service, session, options, format, manifest, values, io);
	}
	const { bundle } =
		session === STDIN
			? await service.compose(session, options)
			: await service.composeOnce(resolve(io.cwd, session), options);
	printWarnings(io, bundle.meta.diagnostics, values.quiet);
	if (format === "json") {
		printJson(
			io,
			{ systemPrompt: bundle.systemPrompt, messages: bundle.messages, meta: bundle.meta },
			{ file: bundle.meta.file, pretty: values.pretty },
		);
	} else if (format === "llm") {
		const messages = service.convertToLlm(bundle);
		printJson(
			io,
			{ systemPrompt: bundle.systemPrompt, messages },
			{ file: bundle.meta.file, pretty: values.pretty },
		);
	} else {
		const { writeText } = await import("./text-output.js"); // text only
		const convert = service.converter(bundle);
		guardLength(
			() => writeText(bundle, convert, io.stdout, { full: values.full }),
			bundle.meta.file,
		);
	}
	return 0;
});
