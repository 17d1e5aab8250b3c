import CLibFuzzer
import Foundation

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
atexit { unlink(path) }
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzUploadProbe($0, $1) })
