/**
 * A templates folder as it was at a git revision (`HEAD`, `main`, `HEAD~1`,
 * `main:templates`), read with git through a child process and written to a
 * temporary folder: the working tree is never touched, nothing is checked
 * out. The folder's tree comes from `git ls-tree`, the files' bytes from one
 * `git cat-file --batch`; the `categories.yaml` beside the folder comes along,
 * as a set finds it there.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { makeFolders } from "../folders.js";
import { usageError } from "./usage.js";

/** A templates folder taken out of a revision; {@link RevisionFolder.remove} deletes it. */
export interface RevisionFolder {
	/** The templates folder, under a temporary folder. */
	templates: string;
	/** What was read: `REV:PATH`. */
	spec: string;
	/** `text` with the temporary folder's paths shown as the revision's (`REV:PATH/v2/harness.hbs`). */
	shown(text: string): string;
	remove(): void;
}

/**
 * Runs git in `cwd`; its stderr's first line becomes the reason of a located
 * error. Node's child_process (with net and dgram) loads on the first call:
 * the commands that read a revision load it only when one is read.
 */
function git(cwd: string, args: readonly string[], input?: string): Buffer {
	const { execFileSync } = createRequire(import.meta.url)(
		"node:child_process",
	) as typeof import("node:child_process");
	try {
		return execFileSync("git", args, {
			cwd,
			maxBuffer: 1 << 30,
			stdio: ["pipe", "pipe", "pipe"],
			...(input === undefined ? {} : { input }),
		});
	} catch (error) {
		const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
		if (e.code === "ENOENT") {
			throw new ContextError("io", "git is not installed (a revision is read with git)", {
				file: cwd,
			});
		}
		const said = e.stderr?.toString("utf8").trim().split("\n")[0] ?? e.message;
		throw new ContextError("io", `git ${args[0]}: ${said}`, { file: cwd }, { cause: error });
	}
}

/**
 * The repository `cwd` is in, or a usage error saying it is not in one.
 * `what` names the argument, for the message.
 */
function repositoryOf(cwd: string, what: string): string {
	try {
		return git(cwd, ["rev-parse", "--show-toplevel"]).toString("utf8").trim();
	} catch (error) {
		if (!(error instanceof ContextError) || /not installed/.test(error.reason)) throw error;
		throw usageError(
			`${what}: not a set or a folder, and ${cwd} is not in a git repository to read it as a revision from`,
		);
	}
}

/**
 * Reads `arg` (`REV` or `REV:PATH`, given as `option`) into a temporary
 * folder. Without a path, the revision's copy of `templates` is read, from
 * the repository that folder is in; with one, the path is read from the
 * repository `cwd` is in. A revision or path that is not there is wrong
 * usage (exit 2): the argument names it.
 */
export function templatesAtRevision(
	arg: string,
	templates: string,
	cwd: string,
	option: string,
): RevisionFolder {
	const colon = arg.indexOf(":");
	const what = `${option} ${arg}`;
	// `REV` is the templates folder as it was: its own repository's, wherever the command runs;
	// `REV:PATH` names a folder of the repository the command runs in, else of the templates' own.
	const own = () => repositoryOf(resolve(cwd, templates), what);
	let root: string;
	if (colon === -1) root = own();
	else {
		try {
			root = repositoryOf(cwd, what);
		} catch {
			root = own();
		}
	}
	const rev = colon === -1 ? arg : arg.slice(0, colon);
	let path: string;
	if (colon === -1) {
		path = relative(root, resolve(templates)).split(sep).join("/");
		if (path.startsWith("..")) {
			throw usageError(
				`${what}: the templates folder ${templates} is outside the repository ${root}: name the folder at the revision, as ${rev}:PATH`,
			);
		}
	} else {
		// A path after the colon is the repository's, from its top (as git show takes it).
		path = posix.normalize(arg.slice(colon + 1).replace(/^\.?\//, "")).replace(/\/$/, "");
	}
	const noRevision = usageError(`${what}: no revision ${JSON.stringify(rev)} in ${root}`);
	if (rev === "" || rev.startsWith("-")) throw noRevision;
	try {
		git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`]);
	} catch {
		throw noRevision;
	}
	const spec = `${rev}:${path}`;
	const listed = git(root, ["ls-tree", "-r", "-z", "--full-tree", rev, "--", path])
		.toString("utf8")
		.split("\0")
		.filter((l) => l !== "")
		.map((l) => /^\d+ (\w+) [0-9a-f]+\t(.*)$/s.exec(l))
		.filter((m): m is RegExpExecArray => m !== null && m[1] === "blob")
		.map((m) => m[2] as string)
		.filter((f) => f.startsWith(`${path}/`));
	if (listed.length === 0) {
		throw usageError(`${what}: no folder ${path} at revision ${rev} of ${root}`);
	}
	const beside = posix.join(posix.dirname(path), "categories.yaml").replace(/^\.\//, "");
	const besideListed =
		git(root, ["ls-tree", "--full-tree", "--name-only", rev, "--", beside])
			.toString("utf8")
			.trim() === beside;
	const files = besideListed ? [...listed, beside] : listed;
	const out = mkdtempSync(join(tmpdir(), "theway-revision-"));
	const base = posix.dirname(path);
	try {
		const batch = git(root, ["cat-file", "--batch"], files.map((f) => `${rev}:${f}\n`).join(""));
		let at = 0;
		for (const file of files) {
			const eol = batch.indexOf(0x0a, at);
			const size = Number(/ blob (\d+)$/.exec(batch.subarray(at, eol).toString("utf8"))?.[1]);
			const start = eol + 1;
			const target = join(out, base === "." ? file : posix.relative(base, file));
			makeFolders(dirname(target));
			writeFileSync(target, batch.subarray(start, start + size));
			at = start + size + 1;
		}
	} catch (error) {
		rmSync(out, { recursive: true, force: true });
		throw error;
	}
	const inRevision = `${rev}:${base === "." ? "" : `${base}/`}`;
	return {
		templates: join(out, posix.basename(path)),
		spec,
		shown: (text) => text.split(`${out}${sep}`).join(inRevision).split(out).join(`${rev}:${base}`),
		remove: () => rmSync(out, { recursive: true, force: true }),
	};
}

/** `error` (a set of `folder` that cannot be built, say) with its paths shown as the revision's. */
export function atRevision(error: ContextError, folder: RevisionFolder): ContextError {
	const shown = (d: Diagnostic): Diagnostic => ({
		...d,
		message: folder.shown(d.message),
		...(d.file === undefined ? {} : { file: folder.shown(d.file) }),
	});
	const { file, line, column } = error;
	return new ContextError(
		error.code,
		folder.shown(error.reason),
		{
			...(file === undefined ? {} : { file: folder.shown(file) }),
			...(line === undefined ? {} : { line }),
			...(column === undefined ? {} : { column }),
		},
		{ cause: error, diagnostics: error.diagnostics.map(shown) },
	);
}
