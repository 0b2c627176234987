#!/usr/bin/env ruby
# Renders Mustache cases with Ruby's `mustache` gem (Debian's ruby-mustache), the reference
# for Tests/MustacheTests/DifferentialTests.swift.
#
#   ruby reference.rb cases.json
#
# cases.json holds an array of {"template", "partials", "data"}, where data is JSON text. Prints
# a JSON array with, for each case, {"output", "outputWithEmptyLinesUnindented"} or {"error"}.
require "json"
require "mustache"

class Mustache
  class Context
    # The gem's own `partial` (mustache 1.1.1, lib/mustache/context.rb), which indents every
    # line of the partial's source, with one switch: fruitsite deliberately leaves a partial's
    # empty lines unindented, so that indenting adds no trailing whitespace. Rendering both
    # ways lets the test tell that difference from any other.
    def partial(name, indentation = "")
      mustache = mustache_in_stack
      line_start = $empty_lines_unindented ? /^(?!\r?$)/ : /^/
      part = mustache.partial(name).to_s.gsub(line_start, indentation)
      template_for_partial(part).render(self)
    end
  end
end

def render(test_case, empty_lines_unindented:)
  $empty_lines_unindented = empty_lines_unindented
  partials = test_case["partials"]
  view = Class.new(Mustache)
  view.template = test_case["template"]
  view.define_method(:partial) { |name| partials.fetch(name.to_s, "") }
  view.render(JSON.parse(test_case["data"]))
end

cases = JSON.parse(File.read(ARGV.fetch(0)))
results = cases.map do |test_case|
  {
    "output" => render(test_case, empty_lines_unindented: false),
    "outputWithEmptyLinesUnindented" => render(test_case, empty_lines_unindented: true),
  }
rescue StandardError => error
  { "error" => "#{error.class}: #{error.message}" }
end
puts JSON.generate(results)
