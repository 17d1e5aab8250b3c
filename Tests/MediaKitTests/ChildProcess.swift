import Foundation

/// A helper program a test runs in the background (ffmpeg feeding a stream, a Python HTTP
/// server), spawned and reaped directly: Foundation's `Process.waitUntilExit` was seen to hang
/// here after `terminate()`, and no pipe is left for another test's child to inherit.
struct ChildProcess {
    let pid: pid_t

    /// Starts `arguments[0]` (an absolute path) with `arguments`: standard input and error
    /// /dev/null, standard output into the file `output` (created) or /dev/null.
    init(_ arguments: [String], output: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else { throw TestClipError(description: "cannot start \(arguments[0]): error \(result)") }
        pid = child
    }

    /// Kills it and waits for it to be gone.
    func kill() {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
