/** `theway-context preview`: a live page of what the model gets, for editing templates. */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { parseEvalReport, type ReadReport } from "../eval/report-file.js";
import { startPreview } from "../preview/server.js";
import { replayBars } from "../replay/bars.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { defineCommand } from "./command.js";
import { PREVIEW } from "./commands/preview.js";
import { readOptionFile } from "./io.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { unitsOption } from "./units-option.js";
import { warn } from "./voice.js";

export const previewCommand = defineCommand(PREVIEW, async ({ values, positionals }, io) => {
	const { port } = values;
	const tokenizer = unitsOption(values.tokenizer, io);
	const report = values.eval === undefined ? undefined : readReport(values.eval);
	const tools = toolsView(await readToolsOption(values.tools));
	const server = await startPreview({
		tokenizer,
		sessions: resolve(io.cwd, positionals[0] ?? "."),
		templates: values.templates ?? DEFAULT_TEMPLATES_DIR,
		port,
		cwd: io.cwd,
		replay: replayBars,
		...tools,
		...(report === undefined ? {} : { eval: report }),
	});
	io.stdout(`${server.url}\n`);
	io.stdout(
		`theway-context preview: ${server.catalog.size} ${server.catalog.size === 1 ? "session" : "sessions"} from ${server.catalog.label}, template sets from ${server.workspace.show(server.workspace.templates)}/; Ctrl-C stops\n`,
	);
	if (values.open) {
		const opener = openBrowser(server.url);
		if (opener === undefined)
			warn(
				io,
				`no browser opener found (${openerCommand()[0]} is not on PATH): open ${server.url} yourself`,
			);
		else io.stderr(`preview: opening ${server.url} with ${opener}\n`);
	}
	await new Promise<void>((done) => {
		const stop = () => {
			process.off("SIGINT", stop);
			process.off("SIGTERM", stop);
			done();
		};
		process.on("SIGINT", stop);
		process.on("SIGTERM", stop);
	});
	await server.close();
	return 0;
});

/** The eval report at `path`, checked. */
function readReport(path: string): ReadReport {
	return parseEvalReport(readOptionFile(path, "the eval report"), path);
}

/** The command that opens a URL in the default browser on this platform. */
function openerCommand(): [string, ...string[]] {
	if (process.platform === "darwin") return ["open"];
	if (process.platform === "win32") return ["cmd", "/c", "start", ""];
	return ["xdg-open"];
}

/** Opens `url` in a browser; the opener's name, or undefined when there is none. */
function openBrowser(url: string): string | undefined {
	const [command, ...args] = openerCommand();
	if (!onPath(command)) return undefined;
	const child = spawn(command, [...args, url], { detached: true, stdio: "ignore" });
	child.on("error", () => {}); // the URL was printed: nothing else to do
	child.unref();
	return command;
}

function onPath(command: string): boolean {
	const extensions = process.platform === "win32" ? [".exe", ".cmd", ""] : [""];
	return (process.env.PATH ?? "").split(delimiter).some((dir) =>
		extensions.some((ext) => {
			try {
				accessSync(join(dir, command + ext), constants.X_OK);
				return true;
			} catch {
				return false;
			}
		}),
	);
}
