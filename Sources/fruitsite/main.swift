import FruitsiteCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

var cli = CLI()
cli.endsProcess = true
exit(cli.run(Array(CommandLine.arguments.dropFirst())).rawValue)
