import CastServer
@testable import filtercast
import MediaKit
import Testing

/// `--channel NAME=INPUT`, `FILTERCAST_CHANNELS` and `--max-channels`: which channel is the
/// default one, and the command lines refused with exit 2 and one line naming the problem.
@Suite struct ChannelCommandLineTests {
    func configured(_ arguments: [String], environment: [String: String] = [:]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration(webRoot: "")
        let options = try ParsedOptions(arguments, for: ServeCommand.spec, environment: environment)
        try ChannelOptions.apply(options, to: &configuration)
        try ChannelOptions.applyOnDemand(options, to: &configuration)
        return configuration
    }

    @Test func withoutChannelsMainPlaysTheInput() throws {
        let plain = try configured(["--input", "test:64x48@10"])
        #expect(plain.defaultChannel == .main && plain.channels.isEmpty && plain.maxChannels == 16)
        guard case .testPattern(64, 48, 10) = plain.input else { Issue.record("\(plain.input)"); return }
        #expect(try configured([]).channels.isEmpty)
    }

    @Test func theInputIsMainAndTheChannelsFollowInOrder() throws {
        let configuration = try configured(["--input", "test:64x48@10", "--channel", "b=test:32x24@5", "--channel=a=clip.mp4"])
        #expect(configuration.defaultChannel == .main)
        #expect(configuration.channels.map(\.name.description) == ["b", "a"])
        guard case .file("clip.mp4") = configuration.channels[1].input else { Issue.record("\(configuration.channels[1].input)"); return }
    }

    @Test func withoutInputTheFirstChannelIsTheDefault() throws {
        let configuration = try configured(["--channel", "cam1=test:32x24@5", "--channel", "cam2=test"])
        #expect(configuration.defaultChannel.description == "cam1")
        #expect(configuration.channels.map(\.name.description) == ["cam2"])
        guard case .testPattern(32, 24, 5) = configuration.input else { Issue.record("\(configuration.input)"); return }
    }

    @Test func theVariableSeparatesChannelsBySemicolons() throws {
        let environment = ["FILTERCAST_CHANNELS": "a=http://h/x.mp4?a=1,b=2; b=test;", "FILTERCAST_MAX_CHANNELS": "3"]
        let configuration = try configured(["--input", "test"], environment: environment)
        #expect(configuration.channels.map(\.name.description) == ["a", "b"] && configuration.maxChannels == 3)
        guard case .file("http://h/x.mp4?a=1,b=2") = configuration.channels[0].input else {
            Issue.record("\(configuration.channels[0].input)"); return
        }
    }

    /// (arguments, environment, words the single error line must contain)
    static let refused: [([String], [String: String], [String])] = [
        (["--channel", "cam=test", "--channel", "cam=test:64x48"], [:], ["--channel", "'cam'", "twice"]),
        (["--input", "test", "--channel", "main=test"], [:], ["'main'", "twice", "--input"]),
        (["--channel", "Cam=test"], [:], ["--channel", "'Cam'", "a-z"]),
        (["--channel", "-cam=test"], [:], ["--channel", "start with a letter or a digit"]),
        (["--channel", "cam"], [:], ["--channel", "NAME=INPUT", "'cam'"]),
        (["--channel", "cam="], [:], ["--channel", "NAME=INPUT"]),
        (["--channel", "cam=test:0x0"], [:], ["--channel", "cam", "test:0x0"]),
        (["--input", "test", "--channel", "a=test", "--channel", "b=test", "--max-channels", "2"], [:], ["3 channels", "--max-channels 2"]),
        (["--max-channels", "0"], [:], ["--max-channels"]),
        ([], ["FILTERCAST_CHANNELS": "x=test;x=test"], ["FILTERCAST_CHANNELS", "'x'", "twice"]),
        (["--channel", "cam=test", "--always-on", "door"], [:], ["--always-on", "no channel 'door'", "cam"]),
        (["--always-on", "Main"], [:], ["--always-on", "'Main'"]),
        (["--idle-close", "-1"], [:], ["--idle-close"]),
        (["--max-channel-viewers", "0"], [:], ["--max-channel-viewers"]),
        ([], ["FILTERCAST_IDLE_CLOSE": "soon"], ["FILTERCAST_IDLE_CLOSE"]),
    ]

    @Test(arguments: refused)
    func badChannelsAreUsageErrorsNamingTheProblem(_ arguments: [String], _ environment: [String: String], _ words: [String]) throws {
        let run = try CLI.run(["serve"] + arguments + ["--web", "/tmp"], environment: environment)
        #expect(run.status == 2, "\(arguments): \(run.errors)")
        #expect(run.errorLines.count == 1, "\(run.errors)")
        for word in words { #expect(run.errors.contains(word), "\(arguments): \(run.errors) lacks \(word)") }
    }

    @Test func maxChannelViewersIsOffUnlessGiven() throws {
        #expect(try configured([]).maxChannelViewers == nil)
        #expect(try configured(["--max-channel-viewers", "5"]).maxChannelViewers == 5)
        #expect(try configured([], environment: ["FILTERCAST_MAX_CHANNEL_VIEWERS": "7"]).maxChannelViewers == 7)
    }

    @Test func idleCloseAndAlwaysOnKeepLiveInputsOpenOrNot() throws {
        #expect(try configured([]).playback.idleClose == .seconds(10) && configured([]).alwaysOn.isEmpty)
        #expect(try configured(["--idle-close", "2.5"]).playback.idleClose == .milliseconds(2500))
        #expect(try configured(["--idle-close", "0"]).playback.idleClose == nil, "0: never")
        let kept = try configured(["--input", "test", "--channel", "cam=test", "--always-on", "cam", "--always-on=main"],
                                  environment: ["FILTERCAST_IDLE_CLOSE": "3"])
        #expect(kept.alwaysOn.map(\.description).sorted() == ["cam", "main"] && kept.playback.idleClose == .seconds(3))
        #expect(try configured(["--channel", "a=test", "--channel", "b=test"], environment: ["FILTERCAST_ALWAYS_ON": "a,b"])
            .alwaysOn.count == 2)
    }

    @Test func aChannelWhoseInputCannotBeOpenedStopsTheStartNamingIt() throws {
        let run = try CLI.run(["serve", "--input", "test:64x48@5", "--channel", "cam=/nonexistent/clip.mp4", "--web", "/tmp",
                               "--port", "0"])
        #expect(run.status == 1 && run.errorLines.count == 1, "\(run.errors)")
        #expect(run.errors.contains("channel cam: ") && run.errors.contains("/nonexistent/clip.mp4"), "\(run.errors)")
    }

    @Test func helpNamesTheChannelOptionsAndTheirVariable() throws {
        let run = try CLI.run(["serve", "--help"])
        #expect(run.output.contains("--channel NAME=INPUT") && run.output.contains("--max-channels N"))
        #expect(run.output.contains("FILTERCAST_CHANNELS: separated by ;"))
    }
}
