/** `theway-context inspect`: what the model sees of a session, measured part by part. */
import { resolve } from "node:path";
import { STDIN } from "../log/read.js";
import { formatSize } from "../measure/format.js";
import { measureLoaded, measuringService } from "../measure/session.js";
import { Units } from "../measure/units.js";
import { defineCommand } from "./command.js";
import { INSPECT } from "./commands/inspect.js";
import { branchOptions, checkSetOption, printJson } from "./io.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { unitsOption } from "./units-option.js";
import { printWarnings } from "./voice.js";

export const inspectCommand = defineCommand(INSPECT, async ({ values, positionals }, io) => {
	const [session] = positionals as [string];
	const tokenizer = new Units(unitsOption(values.tokenizer, io));
	const target = measuringService({
		...(values.templates === undefined ? {} : { templates: values.templates }),
		strict: values.strict,
	});
	checkSetOption(target.registry, values["template-version"]);
	const { bundle, size } = measureLoaded(
		target,
		session === STDIN ? session : resolve(io.cwd, session),
		tokenizer,
		{ ...branchOptions(values), ...toolsView(await readToolsOption(values.tools)) },
	);
	printWarnings(io, bundle.meta.diagnostics, values.quiet);
	if (values.format === "json")
		printJson(io, size, { file: bundle.meta.file, pretty: values.pretty });
	else {
		const { meta } = bundle;
		io.stdout(
			formatSize(
				size,
				`${meta.file} · session ${meta.sessionId} · leaf ${meta.leafId ?? "(none)"} · templates ${meta.templateVersion}`,
			),
		);
	}
	return 0;
});
