@testable import CastServer
import Foundation
import Testing

@Suite struct StaticFilesTests {
    @Test(arguments: [
        ("/", "index.html"), ("/index.html", "index.html"), ("/app.js", "app.js"),
        ("/css/style.css", "css/style.css"), ("/css/", "css/index.html"), ("/a//b.js", "a/b.js"),
        ("/app.js?v=3", "app.js"), ("/sp%20ace.txt", "sp ace.txt"),
    ])
    func normalizesPaths(_ path: String, _ expected: String) {
        #expect(StaticFiles.normalize(path) == expected)
    }

    @Test(arguments: [
        "", "index.html", "/../etc/passwd", "/a/../../etc/passwd", "/%2e%2e/etc/passwd", "/..%2fetc/passwd",
        "/.secret", "/.git/config", "/a/./b", "/a\\..\\b", "/%00x", "/%zz",
    ])
    func refusesEscapes(_ path: String) {
        #expect(StaticFiles.normalize(path) == nil, "\(path)")
    }

    @Test func resolvesInsideTheRootOnly() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        let root = base.appendingPathComponent("web"), outside = base.appendingPathComponent("secret.txt")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("css"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("<!doctype html>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: root.appendingPathComponent("css/style.css"))
        try Data("top secret".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("leak.txt"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("up"), withDestinationURL: base)

        let files = try StaticFiles(root: root.path)
        #expect(files.resolve("/")?.mimeType == "text/html; charset=utf-8")
        #expect(files.resolve("/css/style.css")?.mimeType == "text/css; charset=utf-8")
        #expect(files.resolve("/css/style.css")?.path.hasSuffix("/web/css/style.css") == true)
        #expect(files.resolve("/leak.txt") == nil, "a symlink out of the root")
        #expect(files.resolve("/up/secret.txt") == nil, "a folder symlink out of the root")
        #expect(files.resolve("/missing.js") == nil)
        #expect(files.resolve("/css") == nil, "a folder without index.html")
        // A page without its .html (/embed?channel=x → embed.html); never another extension's file.
        try Data("<!doctype html>".utf8).write(to: root.appendingPathComponent("embed.html"))
        #expect(files.resolve("/embed?channel=x")?.path.hasSuffix("/web/embed.html") == true)
        #expect(files.resolve("/embed")?.mimeType == "text/html; charset=utf-8")
        #expect(files.resolve("/style") == nil, "css/style.css is not style.html")
        #expect(files.resolve("/embed.js") == nil)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("out.html"), withDestinationURL: outside)
        #expect(files.resolve("/out") == nil, "a symlink out of the root, without its .html too")
        #expect(throws: StaticFilesError.self) { try StaticFiles(root: outside.path) }
    }

    @Test(arguments: [("a.js", "text/javascript; charset=utf-8"), ("A.PNG", "image/png"), ("x.svg", "image/svg+xml"),
                      ("noext", "application/octet-stream"), ("f.unknown", "application/octet-stream")])
    func mimeTypes(_ name: String, _ type: String) {
        #expect(StaticFiles.mimeType(for: "/root/" + name) == type)
    }
}

@Suite struct OriginPolicyTests {
    @Test func sameHostIsAllowed() {
        #expect(OriginPolicy.allows(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080", allowed: []))
        #expect(OriginPolicy.allows(origin: "https://Example.com", host: "example.com", allowed: []))
        // The page served by --tls-cert itself: the scheme is not compared, host and port are.
        #expect(OriginPolicy.allows(origin: "https://192.168.1.20:8443", host: "192.168.1.20:8443", allowed: []))
        #expect(!OriginPolicy.allows(origin: "https://192.168.1.20:9443", host: "192.168.1.20:8443", allowed: []))
    }

    @Test func otherSitesAreRefusedUnlessListed() {
        #expect(!OriginPolicy.allows(origin: "http://evil.example", host: "127.0.0.1:8080", allowed: []))
        #expect(!OriginPolicy.allows(origin: "http://127.0.0.1:9999", host: "127.0.0.1:8080", allowed: []))
        #expect(!OriginPolicy.allows(origin: "null", host: "127.0.0.1:8080", allowed: []))
        #expect(!OriginPolicy.allows(origin: "http://x", host: "", allowed: []))
        #expect(OriginPolicy.allows(origin: "http://ok.example", host: "127.0.0.1:8080", allowed: ["http://ok.example"]))
    }
}
