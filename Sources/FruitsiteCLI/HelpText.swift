/// The help texts, kept together so README and `--help` are easy to compare.
enum HelpText {
    static let commands = ["build", "check", "search", "help"]

    static let main = """
        fruitsite: build a fruit catalog website from Markdown and Mustache templates.

        USAGE: fruitsite <command> [options]

        COMMANDS:
          build     Generate the site into the output folder (default Output/)
          check     Load, parse and render everything, and report errors, without writing
          search    Filter the catalog from the command line, as the site's search box does

        OPTIONS:
          -h, --help   Show help; 'fruitsite <command> --help' shows a command's options
          --version    Show the version

        Exit status: 0 success, 1 errors in the input or output, 2 a wrong command line.

        """

    static func usage(_ command: String) -> String {
        switch command {
        case "build":
            "fruitsite build [--content DIR] [--templates DIR] [--output DIR] [--config FILE] [--cache-dir DIR] [--drafts] [--clean] [--force] [--wait] [--quiet] [--verbose]"
        case "check":
            "fruitsite check [--content DIR] [--templates DIR] [--config FILE] [--drafts]"
        default:
            "fruitsite search [--content DIR] [--category NAME] [--json] [--drafts] [--] TEXT"
        }
    }

    static func command(_ name: String) -> String? {
        switch name {
        case "build":
            """
            Generate the site: every page, the search index, sitemap.xml, robots.txt and assets.

            USAGE: \(usage("build"))

            OPTIONS:
              --content DIR     The fruit entries, one Markdown file each (default: Content)
              --templates DIR   The Mustache theme (default: Templates)
              --output DIR      Where the site goes (default: Output). A failed build changes
                                nothing in it; a later build rewrites only what changed.
              --config FILE     The site config (default: fruitsite.yml, if it exists)
              --cache-dir DIR   Where a build keeps the site model for the next one, which
                                then reads and renders only what changed
                                (default: .fruitsite-cache)
              --drafts          Include entries marked 'draft: true'
              --clean           Ignore the saved model: parse and render everything,
                                replace the folder
              --force           Replace an output folder that fruitsite did not create
              --wait            When another build is writing the same output folder,
                                wait for it to finish (default: stop with an error)
              --quiet           Print nothing on success
              --verbose         Also say, on standard error, why a build started from
                                scratch and what it parsed, rendered and wrote
              -h, --help        Show this help

            EXAMPLES:
              fruitsite build
              fruitsite build --output /tmp/site --drafts

            """
        case "check":
            """
            Load, parse and render the whole site and report every error, without writing.

            USAGE: \(usage("check"))

            OPTIONS:
              --content DIR     The fruit entries (default: Content)
              --templates DIR   The Mustache theme (default: Templates)
              --config FILE     The site config (default: fruitsite.yml, if it exists)
              --drafts          Include entries marked 'draft: true'
              --quiet           Accepted for symmetry with build
              -h, --help        Show this help

            """
        case "search":
            """
            Print the fruits whose name or category contains TEXT, ignoring case, in catalog
            order, one name a line: exactly what the site's search box shows.

            USAGE: \(usage("search"))

            OPTIONS:
              --content DIR     The fruit entries (default: Content)
              --category NAME   Keep only fruits in this category (exact, case-sensitive)
              --json            Print a JSON array of entries as search-index.json holds them
              --config FILE     The site config (default: fruitsite.yml, if it exists)
              --drafts          Include entries marked 'draft: true'
              --                End of options: TEXT may then start with a dash
              -h, --help        Show this help

            An empty TEXT ("") lists every fruit.

            EXAMPLES:
              fruitsite search berry
              fruitsite search "" --category Citrus
              fruitsite search --json -- -ish

            """
        default: nil
        }
    }
}
