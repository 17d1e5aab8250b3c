import CastServer
import Foundation

/// A web root with a page, a hidden file, and symlinks that lead out of it, made once.
private let files: StaticFiles = {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-static-\(getpid())").path
    let root = base + "/web"
    try! FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
    for path in [root + "/index.html", root + "/sub/index.html", root + "/.hidden", base + "/secret"] {
        precondition(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)), "cannot write \(path)")
    }
    try? FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: base)
    try? FileManager.default.createSymbolicLink(atPath: root + "/secret.html", withDestinationPath: base + "/secret")
    return try! StaticFiles(root: root)
}()

/// A URL path from a request line: what `normalize` returns never climbs or hides, and what
/// `resolve` returns is a regular file inside the root.
func fuzzStaticPaths(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let path = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let relative = StaticFiles.normalize(path) {
        for component in relative.split(separator: "/", omittingEmptySubsequences: false) {
            precondition(!component.isEmpty && component != ".." && !component.hasPrefix(".") && !component.contains("\0"),
                         "normalize(\(path.debugDescription)) = \(relative.debugDescription)")
        }
    }
    if let (file, _) = files.resolve(path) {
        precondition(file.hasPrefix(files.root + "/") && !file.contains("/."), "resolve(\(path.debugDescription)) = \(file)")
    }
    return 0
}
