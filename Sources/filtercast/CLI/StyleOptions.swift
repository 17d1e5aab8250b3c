import CastServer
import FilterKit
import Logging
import MatteKit
import MediaKit
import StyleKit

/// `--styles DIR`: pictures the `style` filter paints like (serve, snapshot, bench).
enum StyleOptions {
    static let spec = OptionSpec(name: "--styles", valueName: "DIR",
                                 help: "Pictures (NAME.jpg or NAME.png) the style filter offers as styles beside the shipped ones, read at start (serve: default DATA/styles); serve also stores styles controlling clients upload there (PUT /api/styles/NAME), making DIR then.")
    static let firstUseSpec = OptionSpec(name: "--style-at-first-use", valueName: nil,
                                         help: "Load and calibrate the style network at the first styled frame, not in the background after start (saves ~90 MB and a second of CPU where nobody styles; the first styled picture then waits for it).")

    /// Unless `--style-at-first-use`, loads and calibrates the style network on a thread of its
    /// own, so that the first styled picture does not wait for it (issue 27: ≤ 1 s from picking
    /// `style` in the page); nothing where the style filter is unavailable. Call after the ready
    /// line: the start does not wait for it. The stop joins the thread returned before the process
    /// exits: OpenVINO torn down by `exit` under a compile still running crashes (SIGSEGV).
    static func warmUp(_ options: ParsedOptions) -> WorkerThread? {
        guard !options.has("--style-at-first-use"), case .success(let engine) = StyleEngine.shared else { return nil }
        return WorkerThread(name: "style-warm-up") { _ = engine.prepare() }
    }

    /// The folder `--styles` names, else `defaultPath`, read (nil with neither, or where the style
    /// filter cannot run: then a folder named by `--styles` is said to be unused, once).
    static func folder(_ options: ParsedOptions, default defaultPath: String? = nil) throws -> StyleFolder? {
        guard let path = options.string("--styles") ?? defaultPath else { return nil }
        let engine: StyleEngine
        switch StyleEngine.shared {
        case .success(let shared): engine = shared
        case .failure(let reason):
            if options.has("--styles") { Log.warning("--styles \(path) is not used: \(reason)") }
            return nil
        }
        do {
            return try StyleFolder(path: path, engine: engine)
        } catch {
            throw UsageError(description: "--styles: \(error)")
        }
    }

    /// The catalog with the `style` filter over `folder`'s pictures and the shipped styles (the
    /// standard one without a folder), and the person matte's filters — each where its runtime
    /// and networks are laid out (said once where not).
    static func catalog(with folder: StyleFolder?) -> FilterCatalog {
        MatteCatalog.adding(to: folder.map { StyleCatalog.with($0.library) } ?? StyleCatalog.standard)
    }
}
