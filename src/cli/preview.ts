/** `theway-context preview`: a live page of what the model gets, for editing templates. */
import { spawn } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { parseEvalReport, type ReadReport } from "../eval/report-file.js";
import { ioError } from "../log/read.js";
import { startPreview } from "../preview/server.js";
import { replayBars } from "../replay/bars.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { defineCommand, HELP_OPTION, templatesOption } from "./io.js";
import { TOKENIZER_HELP, unitsOption } from "./units-option.js";
import { usageError } from "./usage.js";

export const PREVIEW_USAGE = `Usage: theway-context preview [session.jsonl|DIR] [options]

Serves a page on 127.0.0.1 showing what the model gets for a session: the
system prompt section by section, each labelled with its template, and the
messages as the model sees them, with their sizes. The page follows every
save of a template or categories.yaml; the working copy of each set renders
before its version is bumped. DIR is searched for *.jsonl (default: the
current folder).

Options:
  --templates DIR   the templates folder (default: the bundled templates/)
  --port N          the port (default 4770; 0 picks a free one)
${TOKENIZER_HELP}
  --eval FILE       an eval report (eval --format json): the page shows, per
                    call it asked about, the answer beside what the session
                    did, the calls that flipped between the sets highlighted
  --open            open the page in a browser
  -h, --help        this help
`;

const DEFAULT_PORT = 4770;

const OPTIONS = {
	templates: { type: "string" },
	port: { type: "string" },
	tokenizer: { type: "string" },
	open: { type: "boolean" },
	eval: { type: "string" },
	...HELP_OPTION,
} as const;

export const previewCommand = defineCommand(
	OPTIONS,
	PREVIEW_USAGE,
	async ({ values, positionals }, io) => {
		if (positionals.length > 1)
			throw usageError("expected one session log or folder", PREVIEW_USAGE);
		const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
		if (!Number.isInteger(port) || port < 0 || port > 65535 || values.port?.trim() === "") {
			throw usageError("--port must be an integer from 0 to 65535", PREVIEW_USAGE);
		}
		const tokenizer = unitsOption(values.tokenizer, io, PREVIEW_USAGE);
		const report = values.eval === undefined ? undefined : readReport(resolve(io.cwd, values.eval));
		const server = await startPreview({
			tokenizer,
			sessions: resolve(io.cwd, positionals[0] ?? "."),
			templates: templatesOption(values.templates, io).templates ?? DEFAULT_TEMPLATES_DIR,
			port,
			cwd: io.cwd,
			replay: replayBars,
			...(report === undefined ? {} : { eval: report }),
		});
		io.stdout(`${server.url}\n`);
		io.stdout(
			`theway-context preview: ${server.catalog.size} ${server.catalog.size === 1 ? "session" : "sessions"} from ${server.catalog.label}, template sets from ${server.workspace.show(server.workspace.templates)}/; Ctrl-C stops\n`,
		);
		if (values.open === true) {
			const opener = openBrowser(server.url);
			io.stderr(
				opener === undefined
					? `no browser opener found (${openerCommand()[0]} is not on PATH): open ${server.url} yourself\n`
					: `opening ${server.url} with ${opener}\n`,
			);
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
	},
);

/** The eval report at `path`, checked. */
function readReport(path: string): ReadReport {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		throw ioError(path, error, "cannot read the eval report");
	}
	return parseEvalReport(text, path);
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
