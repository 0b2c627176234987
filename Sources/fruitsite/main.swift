import FruitsiteCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Past a file-size limit (`ulimit -f`) a write fails with EFBIG, which each command reports
// and undoes (`init` and `new` leave nothing), rather than SIGXFSZ ending the process half way.
signal(SIGXFSZ, SIG_IGN)
var cli = CLI()
// A debug build, which the sanitizers use, frees what a build made, so that LeakSanitizer
// sees no value kept on purpose (it takes a pointer in an enum's payload for none).
#if !DEBUG
    cli.endsProcess = true
#endif
exit(cli.run(Array(CommandLine.arguments.dropFirst())).rawValue)
