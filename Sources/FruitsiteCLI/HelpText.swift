/// The help texts, kept together so `--help` and docs/reference/ are easy to compare
/// (`HelpReferenceTests` checks that the reference names every option).
enum HelpText {
    static let commands = ["build", "check", "serve", "search", "new", "init", "help"]

    static let main = """
        fruitsite: build a fruit catalog website from Markdown and Mustache templates.

        USAGE: fruitsite <command> [options]

        COMMANDS:
          build     Generate the site into the output folder (default Output/)
          check     Load, parse and render everything, and report errors, without writing
          serve     Serve the site while you edit: every change rebuilds and updates the page
          search    Filter the catalog from the command line, as the site's search box does
          new       Write a new fruit entry: fruitsite new "Blood Orange" --category Citrus
          init      Start a new site in a folder, with the default theme and three fruits

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
            "fruitsite check [--content DIR] [--templates DIR] [--config FILE] [--drafts] [--strict] [--quiet]"
        case "serve":
            "fruitsite serve [--content DIR] [--templates DIR] [--config FILE] [--drafts] [--port N] [--host ADDR] [--base-path PATH] [--allow-host NAME]... [--poll]"
        case "new":
            "fruitsite new NAME --category NAME [--emoji EMOJI] [--vitamins TEXT] "
                + "[--date DATE | --no-date] [--language CODE [--translates SLUG]] "
                + "[--content DIR] [--config FILE] [--output DIR] [--cache-dir DIR]"
        case "init":
            "fruitsite init DIR"
        default:
            "fruitsite search [--content DIR] [--config FILE] [--output DIR] [--cache-dir DIR] "
                + "[--language CODE] [--category NAME] [--facet KEY=VALUE]... [--json] [--drafts] "
                + "[--] [TEXT]"
        }
    }

    static func command(_ name: String) -> String? {
        switch name {
        case "build":
            """
            Generate the site: every page, the search index, robots.txt, the assets and, when the
            config sets baseURL, sitemap.xml.

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
            Also warns about links and #anchors in entries and templates that lead to nothing
            in the site, and about hreflang alternates that do not agree.

            USAGE: \(usage("check"))

            OPTIONS:
              --content DIR     The fruit entries (default: Content)
              --templates DIR   The Mustache theme (default: Templates)
              --config FILE     The site config (default: fruitsite.yml, if it exists)
              --drafts          Include entries marked 'draft: true'
              --strict          Treat warnings as errors: exit 1 if there are any
              --quiet           Print nothing on success (warnings still go to standard error)
              -h, --help        Show this help

            """
        case "serve":
            """
            Build the site into memory and serve it; watch the content, the theme and the
            config, rebuild what a change touches, and update open pages once the new site
            is complete. A change that does not build keeps the last good site and shows the
            errors in every page. Nothing is written to the output folder.

            USAGE: \(usage("serve"))

            OPTIONS:
              --content DIR      The fruit entries (default: Content)
              --templates DIR    The Mustache theme (default: Templates)
              --config FILE      The site config (default: fruitsite.yml, if it exists)
              --drafts           Include entries marked 'draft: true'
              --port N           The port (default: 8000, or the next free one up to 8009)
              --host ADDR        The address or host name (default: 127.0.0.1; 0.0.0.0 shows
                                 the site to the network, with a warning)
              --base-path PATH   Serve the site under PATH, as a host would under a subpath
                                 (default: the path of baseURL, else /)
              --allow-host NAME  Answer requests for NAME too (.NAME: and every name under
                                 it); localhost, IP addresses and --host always are
              --poll             Look for changes every 0.25 s instead of using inotify
              -h, --help         Show this help

            Stop it with Ctrl-C.

            EXAMPLES:
              fruitsite serve
              fruitsite serve --port 8080 --base-path /fruits/

            """
        case "new":
            """
            Write a new entry, Content/<slug>.md, named after NAME with accents folded
            ("Blood Orange" → blood-orange.md, "Açaí" → acai.md), and print its path. In a site
            in several languages, --language writes one in another language,
            Content/<slug>.<code>.md. An entry of its language with that slug anywhere in the
            content folder is never overwritten.

            USAGE: \(usage("new"))

            OPTIONS:
              --category NAME   The fruit's category (required)
              --emoji EMOJI     The fruit's emoji
              --vitamins TEXT   The vitamins, such as "C, B6"
              --date DATE       When the fruit was added, which puts it in the feeds:
                                a date like 2024-05-01 or a timestamp like
                                2024-05-01T09:30:00Z (default: today, in this
                                computer's time zone)
              --no-date         Write no date: the fruit is in no feed
              --language CODE   The entry's language, one of the config's languages:
                                its file is <slug>.<code>.md (default: the first,
                                whose files have no code)
              --translates SLUG The default language's entry it translates, such as
                                apple: the file is apple.<code>.md, or, named otherwise,
                                names it in 'translationKey: apple'
              --content DIR     The content folder (default: Content)
              --config FILE     The site config (default: fruitsite.yml, if it exists)
              --output DIR      The folder a build wrote (default: Output) and
              --cache-dir DIR   where it kept its model (default: .fruitsite-cache): when
                                that model is for this content, only the files changed
                                since are read to check the new entry against the others
              -h, --help        Show this help

            EXAMPLES:
              fruitsite new "Blood Orange" --category Citrus --emoji 🍊 --vitamins "C, A"
              fruitsite new Pomme --category Pépins --language fr --translates apple

            """
        case "init":
            """
            Start a site in DIR, which must be new or empty: fruitsite.yml, three fruits in
            Content/, the default theme in Templates/ and a .gitignore for Output/ and the
            cache. It builds at once.

            USAGE: \(usage("init"))

            OPTIONS:
              -h, --help        Show this help

            EXAMPLES:
              fruitsite init my-catalog && cd my-catalog && fruitsite serve

            """
        case "search":
            """
            Print the fruits whose name or category contains TEXT, ignoring case, in catalog
            order, one name a line: exactly what the site's search box shows. Without TEXT it
            lists every fruit the other options keep, as an empty search box does.

            USAGE: \(usage("search"))

            OPTIONS:
              --content DIR     The fruit entries (default: Content)
              --language CODE   Search this language's catalog, as its pages' search box
                                does (default: the site's first language)
              --category NAME   Keep only fruits in this category (exact, case-sensitive;
                                a name no category has is a usage error)
              --facet KEY=VALUE Keep only fruits with this value of a facet (exact,
                                case-sensitive); repeat to combine facets
              --json            Print a JSON array of entries as search-index.json holds them
              --config FILE     The site config (default: fruitsite.yml, if it exists)
              --output DIR      The folder a build wrote (default: Output) and
              --cache-dir DIR   where it kept its model (default: .fruitsite-cache): when
                                that model is for this content, only the files changed
                                since are read
              --drafts          Include entries marked 'draft: true'
              --                End of options: TEXT may then start with a dash
              -h, --help        Show this help

            EXAMPLES:
              fruitsite search berry
              fruitsite search --category Citrus
              fruitsite search berry --facet vitamins=C
              fruitsite search --language fr pomme
              fruitsite search --json -- -ish

            """
        default: nil
        }
    }
}
