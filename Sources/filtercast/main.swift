import Foundation

exit(FilterCastCommand.main(Array(CommandLine.arguments.dropFirst())))
