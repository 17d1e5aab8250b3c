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

    /// Unless `--style-at-first-use`, loads and calibrates `engine`, the style network, in the
    /// background (``StyleEngine/prepareInBackground(then:)``), so that the first styled picture
    /// does not wait for it (issue 27: ≤ 1 s from picking `style` in the page); nothing where the
    /// style filter is unavailable. Call after the ready line: the start does not wait for it.
    /// Once calibrated, says on standard output, after the ready line, how often the style
    /// refreshes on this machine (issue 42: a slow machine serves `style` with a lag, and says so).
    static func warmUp(_ options: ParsedOptions, engine: Result<StyleEngine, StyleUnavailable>) {
        guard !options.has("--style-at-first-use"), case .success(let engine) = engine else { return }
        engine.prepareInBackground { calibration in
            guard let calibration else { return }
            Log.announce("style refreshes up to \(calibration.refreshHz) times a second here (the network at \(calibration.lines) "
                         + "lines, \(calibration.runMilliseconds) ms a run)",
                         ["styleRefreshHz": .double(calibration.refreshHz), "styleLines": .int(calibration.lines),
                          "styleRunMs": .double(calibration.runMilliseconds)])
        }
    }

    /// The folder `--styles` names, else `defaultPath`, read, its pictures painted by `engine` (nil
    /// with neither, or where the style filter cannot run: then a folder named by `--styles` is
    /// said to be unused, once).
    static func folder(_ options: ParsedOptions, default defaultPath: String? = nil,
                       engine: Result<StyleEngine, StyleUnavailable>) throws -> PictureFolder<StyleLibrary>? {
        guard let path = options.string("--styles") ?? defaultPath else { return nil }
        if case .failure(let reason) = engine, options.has("--styles") { Log.warning("--styles \(path) is not used: \(reason)") }
        guard case .success(let engine) = engine else { return nil }
        do {
            return try PictureFolder(path: path, library: StyleLibrary(engine: engine), checkThreadName: "style-check")
        } catch {
            throw UsageError(description: "--styles: \(error)")
        }
    }

    /// The catalog with the `style` filter over `folder`'s pictures and the shipped styles (over
    /// `engines`' style engine without a folder), and the person matte's filters over its matte
    /// engine (`backgroundReplace` over `backgrounds`' pictures) — each where its runtime and
    /// networks are laid out (said once where not).
    static func catalog(with folder: PictureFolder<StyleLibrary>?, engines: Engines,
                        backgrounds: PictureFolder<BackgroundLibrary>? = nil) -> FilterCatalog {
        MatteCatalog.adding(to: folder.map { StyleCatalog.with($0.library) } ?? StyleCatalog.catalog(for: engines.style),
                            engine: engines.matte, backgrounds: backgrounds?.library)
    }

    /// `snapshot`'s and `bench`'s catalog: the standard filters, `style` over `--styles`' pictures,
    /// the person matte's and `lut` over `--luts`' (each where it can run).
    static func catalog(_ options: ParsedOptions, engines: Engines) throws -> FilterCatalog {
        LUTOptions.catalog(catalog(with: try folder(options, engine: engines.style), engines: engines), with: try LUTOptions.folder(options))
    }

    /// The uploaded backgrounds of `backgroundReplace`, kept in `path` (`DATA/backgrounds`), read;
    /// nil where the person matte cannot run (`engine` is not there).
    static func backgrounds(at path: String, engine: Result<MatteEngine, StyleUnavailable>) throws -> PictureFolder<BackgroundLibrary>? {
        guard case .success = engine else { return nil }
        do {
            return try PictureFolder(path: path, library: BackgroundLibrary(), checkThreadName: "background-check")
        } catch {
            throw UsageError(description: "\(path): \(error)")
        }
    }
}
