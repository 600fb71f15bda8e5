// Writes the arity overloads (2 to 8 sources) of `combineLatest` and `zip`, and the `zip` family of
// Single and Maybe, from one template each, laid out the way `swift format` lays them out.
//
// Run from the package root:  swift Scripts/GenerateArity.swift            (rewrites the files)
//                             swift Scripts/GenerateArity.swift --check    (CI: exit 1 if one is stale)

import Foundation

let lineLength = 120
let docWidth = 100
let arities = 2...8
let numberWords = [2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"]

// MARK: - Layout

/// A doc-comment paragraph: prose wrapped greedily at `width` columns, or lines kept as written.
enum Paragraph {
    case prose(String, width: Int = docWidth)
    case lines([String])
}

func docComment(_ paragraphs: [Paragraph], indent: String) -> [String] {
    var out: [String] = []
    for (index, paragraph) in paragraphs.enumerated() {
        if index > 0 { out.append(indent + "///") }
        switch paragraph {
        case .lines(let lines):
            out += lines.map { indent + "/// " + $0 }
        case .prose(let text, let width):
            var line = indent + "///"
            for word in text.split(separator: " ") {
                if line.count + 1 + word.count > width, line != indent + "///" {
                    out.append(line)
                    line = indent + "///"
                }
                line += " " + word
            }
            out.append(line)
        }
    }
    return out
}

func parameterDocs(_ count: Int, noun: String, extra: [String] = []) -> [String] {
    ["- Parameters:"] + (1...count).map { "  - source\($0): \(noun) \($0)." } + extra
}

/// `head(a, b)tail` on one line when it fits, otherwise one argument per line.
func call(_ indent: String, _ head: String, _ arguments: [String], _ tail: String = "") -> [String] {
    let oneLine = indent + head + "(" + arguments.joined(separator: ", ") + ")" + tail
    if oneLine.count <= lineLength { return [oneLine] }
    return [indent + head + "("]
        + arguments.enumerated().map { index, argument in
            indent + "    " + argument + (index == arguments.count - 1 ? "" : ",")
        } + [indent + ")" + tail]
}

/// `wrapper(label: inner(arguments))` (or `wrapper(inner(arguments))` without a label), breaking
/// the outer call first and the inner one next.
func nestedCall(_ indent: String, wrapper: String, label: String?, inner: String, _ arguments: [String]) -> [String] {
    let head = (label.map { $0 + ": " } ?? "") + inner
    let innerLines = call(indent + "    ", head, arguments)
    let oneLine = indent + wrapper + "(" + head + "(" + arguments.joined(separator: ", ") + "))"
    if oneLine.count <= lineLength { return [oneLine] }
    return [indent + wrapper + "("] + innerLines + [indent + ")"]
}

/// A `@Sendable` closure parameter, broken where `swift format` breaks it as it grows.
func closureParameter(_ indent: String, label: String, arguments: [String], result: String) -> [String] {
    let inner = indent + "    "
    let type = "@escaping @Sendable (" + arguments.joined(separator: ", ") + ")"
    if (indent + label + ": " + type + " throws -> " + result).count <= lineLength {
        return [indent + label + ": " + type + " throws -> " + result]
    }
    if (inner + type + " throws -> " + result).count <= lineLength {
        return [indent + label + ":", inner + type + " throws -> " + result]
    }
    if (inner + type + " throws ->").count <= lineLength {
        return [indent + label + ":", inner + type + " throws ->", inner + result]
    }
    if (inner + type).count <= lineLength {
        return [indent + label + ":", inner + type, inner + "throws -> " + result]
    }
    return [
        indent + label + ":",
        inner + "@escaping @Sendable (",
        inner + "    " + arguments.joined(separator: ", "),
        inner + ") throws -> " + result,
    ]
}

/// A `public static func` header up to its opening brace; parameters go one per line.
func signature(
    _ indent: String,
    name: String,
    generics: [String],
    parameters: [String],
    closure: (label: String, arguments: [String], result: String)? = nil,
    returns: String
) -> [String] {
    var out: [String] = []
    let head = indent + "public static func " + name
    let genericLine = head + "<" + generics.joined(separator: ", ") + ">("
    if genericLine.count <= lineLength {
        out.append(genericLine)
    } else {
        out.append(head + "<")
        out += generics.enumerated().map { index, generic in
            indent + "    " + generic + (index == generics.count - 1 ? "" : ",")
        }
        out.append(indent + ">(")
    }
    let last = closure == nil ? parameters.count - 1 : -1
    out += parameters.enumerated().map { index, parameter in
        indent + "    " + parameter + (index == last ? "" : ",")
    }
    if let closure {
        out += closureParameter(
            indent + "    ",
            label: closure.label,
            arguments: closure.arguments,
            result: closure.result
        )
    }
    out.append(indent + ") -> " + returns + " {")
    return out
}

/// `Type.name(sources…) { (tuple) }`, in the first of `swift format`'s four shapes that fits.
func tupleCall(_ indent: String, type: String, name: String, sources: [String], tuple: String) -> [String] {
    let inner = indent + "    "
    let head = indent + type + "." + name + "(" + sources.joined(separator: ", ") + ")"
    if (head + " { " + tuple + " }").count <= lineLength { return [head + " { " + tuple + " }"] }
    if (head + " {").count <= lineLength { return [head + " {", inner + tuple, indent + "}"] }
    if (indent + type + "." + name + "(").count <= lineLength {
        return call(indent, type + "." + name, sources, " { " + tuple + " }")
    }
    return [
        indent + type,
        inner + "." + name + "(" + sources.joined(separator: ", ") + ") {",
        inner + "    " + tuple,
        inner + "}",
    ]
}

func numbered(_ count: Int, _ item: (Int) -> String) -> [String] { (1...count).map(item) }

// MARK: - Observable and Infallible arities (combineLatest, zip)

/// What differs between the operator families that share the observable arity template.
struct OperatorFamily {
    var name: String
    var header: [String]
    var extendedType: String
    var sourceProtocol: String
    var sourceLetter: String
    var resultType: String
    var inlinable: Bool
    /// Summary line for `count` sources with a result selector, and the paragraphs after it.
    var selectorSummary: (String) -> String
    var selectorDetails: (_ count: Int) -> [Paragraph]
    var selectorParameterDoc: String
    var selectorReturns: String
    var tupleSummary: (String) -> String
    var tupleDetails: (_ count: Int) -> [Paragraph]
    var tupleReturns: String
    /// The body of the overload with a result selector.
    var selectorBody: (_ count: Int) -> [String]
    /// The result function the bodies call, if the family has its own.
    var resultFunction: ResultFunction?
}

struct ResultFunction {
    var name: String
    var access: String
    var inlinable: Bool
    var producer: String
    var read: String
}

/// An overload's doc comment, attributes and signature up to its opening brace.
func overloadHead(
    _ family: OperatorFamily,
    _ count: Int,
    docs: [Paragraph],
    closure: (label: String, arguments: [String], result: String)?,
    returns: String
) -> [String] {
    let letter = family.sourceLetter
    var out = docComment(docs, indent: "    ")
    if family.inlinable { out.append("    @inlinable") }
    return out
        + signature(
            "    ",
            name: family.name,
            generics: numbered(count) { "\(letter)\($0): \(family.sourceProtocol)" },
            parameters: numbered(count) { "_ source\($0): \(letter)\($0)" },
            closure: closure,
            returns: returns
        )
}

func selectorOverload(_ family: OperatorFamily, _ count: Int) -> [String] {
    let parameters = parameterDocs(count, noun: "Source", extra: [family.selectorParameterDoc])
    let docs =
        [.prose(family.selectorSummary(numberWords[count]!), width: .max)] + family.selectorDetails(count)
        + [.lines(parameters + [family.selectorReturns])]
    let arguments = numbered(count) { "\(family.sourceLetter)\($0).Element" }
    return overloadHead(
        family,
        count,
        docs: docs,
        closure: ("resultSelector", arguments, "Element"),
        returns: "\(family.resultType)<Element>"
    ) + family.selectorBody(count) + ["    }"]
}

func tupleOverload(_ family: OperatorFamily, _ count: Int) -> [String] {
    let elements = numbered(count) { "\(family.sourceLetter)\($0).Element" }
    let tupleType = "\(family.resultType)<(" + elements.joined(separator: ", ") + ")>"
    let docs =
        [.prose(family.tupleSummary(numberWords[count]!), width: .max)] + family.tupleDetails(count)
        + [.lines(parameterDocs(count, noun: "Source") + [family.tupleReturns])]
    let body = tupleCall(
        "        ",
        type: tupleType,
        name: family.name,
        sources: numbered(count) { "source\($0)" },
        tuple: "(" + (0..<count).map { "$\($0)" }.joined(separator: ", ") + ")"
    )
    return overloadHead(family, count, docs: docs, closure: nil, returns: tupleType) + body + ["    }"]
}

func resultFunction(_ function: ResultFunction, _ count: Int) -> [String] {
    let elements = numbered(count) { "E\($0)" }
    var out = docComment(
        [
            .lines([
                "The result function for \(numberWords[count]!) sources, generic over the element types themselves: reading",
                "them as `O1.Element`, … inside the result function would look each one up per result.",
            ])
        ],
        indent: ""
    )
    if function.inlinable { out.append("@inlinable") }
    out += [
        function.access + "func \(function.name)<" + elements.joined(separator: ", ") + ", Result: Sendable>(",
        "    _ resultSelector: @escaping @Sendable (" + elements.joined(separator: ", ") + ") throws -> Result",
        ") -> \(function.producer)<Result>.ResultSelector {",
        "    { values in",
        "        try resultSelector(",
    ]
    out += elements.enumerated().map { index, element in
        "            \(function.read)(values, \(index), as: \(element).self)" + (index == count - 1 ? "" : ",")
    }
    out += ["        )", "    }", "}"]
    return out
}

func operatorFile(_ family: OperatorFamily) -> [String] {
    var out = family.header + [""]
    out.append("extension \(family.extendedType) {")
    out += arities.map { selectorOverload(family, $0) }.joined(separator: [""])
    out.append("}")
    if let function = family.resultFunction {
        for count in arities {
            out.append("")
            out += resultFunction(function, count)
        }
    }
    out += ["", "extension \(family.extendedType) where Element == any Sendable {"]
    out += arities.map { tupleOverload(family, $0) }.joined(separator: [""])
    out.append("}")
    return out
}

func producerBody(producer: String, source: @escaping (Int) -> String, result: String) -> (Int) -> [String] {
    { count in
        ["        \(producer)(", "            sources: ["]
            + numbered(count) { "                " + source($0) + "," }
            + ["            ],", "            resultSelector: \(result)(resultSelector)", "        )"]
    }
}

let combineLatestFamily = OperatorFamily(
    name: "combineLatest",
    header: [
        "// The overloads for 2 to 8 sources, thin by design: each lists its sources as typed",
        "// `CombineLatestSourceOf` values and says how to read their latest elements; CombineLatestSink "
            + "(CombineLatest.swift) does the work.",
        "// `@inlinable`, with `combineLatestResult`, so the function that reads the latest elements is",
        "// specialized for them where the operator is used.",
    ],
    extendedType: "ObservableType",
    sourceProtocol: "ObservableType",
    sourceLetter: "O",
    resultType: "Observable",
    inlinable: true,
    selectorSummary: {
        "Combines the latest elements of \($0) sources with `resultSelector` whenever any of them sends an element."
    },
    selectorDetails: { _ in
        [
            .lines([
                "A result is sent each time a source sends an element, once every source has sent at least",
                "one. The result completes when every source has completed, or when a source sends an",
                "element while another source is done without ever having sent one. An error from any",
                "source, or thrown by `resultSelector`, is sent at once and disposes every source.",
            ]),
            .lines([
                "`resultSelector` runs on the thread of the source whose element triggered it, or on the",
                "thread delivering an earlier result at that moment, right after it; never twice at once,",
                "never under the operator's lock. Results are delivered in order, one at a time, even when",
                "the sources emit on different threads.",
            ]),
        ]
    },
    selectorParameterDoc: "  - resultSelector: Combines the latest element of each source.",
    selectorReturns: "- Returns: An observable of the results for the sources' latest elements.",
    tupleSummary: {
        "Combines the latest elements of \($0) sources into tuples whenever any of them sends an element."
    },
    tupleDetails: { _ in
        [
            .lines([
                "A tuple is sent each time a source sends an element, once every source has sent at least",
                "one. The result completes when every source has completed, or when a source sends an",
                "element while another source is done without ever having sent one. An error from any",
                "source is sent at once and disposes every source. Tuples are delivered in order, one at a",
                "time, never overlapping, even when the sources emit on different threads.",
            ])
        ]
    },
    tupleReturns: "- Returns: An observable of tuples of the sources' latest elements.",
    selectorBody: producerBody(
        producer: "CombineLatestProducer",
        source: { "CombineLatestSourceOf<O\($0).Element>(source\($0).asObservable())" },
        result: "combineLatestResult"
    ),
    resultFunction: ResultFunction(
        name: "combineLatestResult",
        access: "",
        inlinable: true,
        producer: "CombineLatestProducer",
        read: "latest"
    )
)

let zipFamily = OperatorFamily(
    name: "zip",
    header: [
        "// The overloads for 2 to 8 sources, thin by design: each lists its sources as typed",
        "// `ZipSourceOf` values and says how to read their queued elements; ZipSink (Zip.swift) does the work.",
    ],
    extendedType: "ObservableType",
    sourceProtocol: "ObservableType",
    sourceLetter: "O",
    resultType: "Observable",
    inlinable: false,
    selectorSummary: {
        "Pairs up the elements of \($0) sources by index and combines each group with `resultSelector`."
    },
    selectorDetails: { _ in
        [
            .lines([
                "The n-th result combines the n-th element of every source: elements wait in a queue per",
                "source until every source has sent its n-th one. The result completes when every source",
                "has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped",
                "then). An error from any source, or thrown by `resultSelector`, is sent at once and",
                "disposes every source.",
            ]),
            .lines([
                "`resultSelector` runs on the thread of the source whose element completed a group, or on",
                "the thread delivering an earlier result at that moment, right after it; never twice at",
                "once, never under the operator's lock. Results are delivered in order, one at a time, even",
                "when the sources emit on different threads.",
            ]),
        ]
    },
    selectorParameterDoc: "  - resultSelector: Combines the n-th element of each source.",
    selectorReturns: "- Returns: An observable of the results for each group of elements with the same index.",
    tupleSummary: { "Pairs up the elements of \($0) sources by index into tuples." },
    tupleDetails: { _ in
        [
            .lines([
                "The n-th tuple holds the n-th element of every source: elements wait in a queue per",
                "source until every source has sent its n-th one. The result completes when every source",
                "has completed (as in RxSwift 6). An error from any source is sent at once and disposes",
                "every source. Tuples are delivered in order, one at a time, never overlapping, even when",
                "the sources emit on different threads.",
            ])
        ]
    },
    tupleReturns: "- Returns: An observable of tuples of the elements with the same index.",
    selectorBody: producerBody(
        producer: "ZipProducer",
        source: { "ZipSourceOf<O\($0).Element, Element>(source\($0))" },
        result: "zipResult"
    ),
    resultFunction: ResultFunction(
        name: "zipResult",
        access: "private ",
        inlinable: false,
        producer: "ZipProducer",
        read: "dequeueFirst"
    )
)

// MARK: - Infallible arities

/// `combineLatest` and `zip` for infallibles: the observable operators, wrapped again.
func infallibleFamily(name: String, selectorVerb: String, tupleVerb: String, combines: String) -> OperatorFamily {
    OperatorFamily(
        name: name,
        header: [],
        extendedType: "Infallible",
        sourceProtocol: "InfallibleType",
        sourceLetter: "I",
        resultType: "Infallible",
        inlinable: false,
        selectorSummary: {
            "\(selectorVerb) \($0) infallibles with `resultSelector`\(name == "zip" ? "." : " whenever any of them sends one.")"
        },
        selectorDetails: { [infallibleSeeAlso(name, $0, selector: true)] },
        selectorParameterDoc: "  - resultSelector: \(combines)",
        selectorReturns: "- Returns: An infallible of the results.",
        tupleSummary: {
            "\(tupleVerb) \($0) infallibles \(name == "zip" ? "by index into tuples." : "into tuples whenever any of them sends one.")"
        },
        tupleDetails: { [infallibleSeeAlso(name, $0, selector: false)] },
        tupleReturns:
            "- Returns: An infallible of tuples of the \(name == "zip" ? "elements with the same index" : "latest elements").",
        selectorBody: { count in
            nestedCall(
                "        ",
                wrapper: "Infallible",
                label: nil,
                inner: "Observable.\(name)",
                numbered(count) { "source\($0).asObservable()" } + ["resultSelector: resultSelector"]
            )
        },
        resultFunction: nil
    )
}

/// Threads, ordering and completion are the observable operator's; the summary says which.
func infallibleSeeAlso(_ name: String, _ count: Int, selector: Bool) -> Paragraph {
    let symbol = "\(name)(" + String(repeating: "_:", count: count) + (selector ? "resultSelector:)" : ")")
    return .prose("Threads, ordering and completion work as in `Observable.\(symbol)`.")
}

func infallibleFile() -> [String] {
    let combineLatest = infallibleFamily(
        name: "combineLatest",
        selectorVerb: "Combines the latest elements of",
        tupleVerb: "Combines the latest elements of",
        combines: "Combines the latest element of each source."
    )
    let zip = infallibleFamily(
        name: "zip",
        selectorVerb: "Pairs up by index the elements of",
        tupleVerb: "Pairs up the elements of",
        combines: "Combines the elements with the same index."
    )
    return [
        "// `combineLatest` and `zip` for 2 to 8 infallibles, with a result selector or into a tuple: each",
        "// forwards to the observable operator of the same name and wraps the result again.",
    ] + operatorFile(combineLatest) + operatorFile(zip)
}

// MARK: - Single and Maybe zip

/// `zip` for singles and maybes, written once: extensions constrained on `SingleOrMaybeTrait`,
/// whose results have the trait of their sources.
let traitExtension = "extension PrimitiveSequenceType where Trait: SingleOrMaybeTrait"

func traitQuantity(_ count: Int) -> String {
    let all = count == 2 ? "both" : "all \(numberWords[count]!)"
    return "\(all) singles, or \(all) maybes,"
}

let traitThreads =
    "The sources are subscribed at once, in order, on the subscribing thread. `resultSelector` runs on the thread "
    + "of the source that succeeds last. The first failure, or an error thrown by `resultSelector`, fails the "
    + "result at once and disposes the other sources. If a maybe completes empty, the result completes empty once "
    + "every maybe has ended."

func traitSelectorArity(_ count: Int) -> [String] {
    var out = docComment(
        [
            .prose(
                "Succeeds when \(traitQuantity(count)) have succeeded, with `resultSelector` applied to their elements."
            ),
            .prose(traitThreads),
            .lines(
                parameterDocs(count, noun: "Source", extra: ["  - resultSelector: Combines the elements."])
                    + ["- Returns: A single of the combined elements for singles, a maybe for maybes."]
            ),
        ],
        indent: "    "
    )
    out += signature(
        "    ",
        name: "zip",
        generics: numbered(count) { "E\($0): Sendable" },
        parameters: numbered(count) { "_ source\($0): PrimitiveSequence<Trait, E\($0)>" },
        closure: ("resultSelector", numbered(count) { "E\($0)" }, "Element"),
        returns: "PrimitiveSequence<Trait, Element>"
    )
    out += nestedCall(
        "        ",
        wrapper: "PrimitiveSequence",
        label: "raw",
        inner: "Observable.zip",
        numbered(count) { "source\($0).source" } + ["resultSelector: resultSelector"]
    )
    return out + ["    }"]
}

func traitTupleArity(_ count: Int) -> [String] {
    let selectorName = "zip(" + String(repeating: "_:", count: count) + "resultSelector:)"
    var out = docComment(
        [
            .prose("Succeeds when \(traitQuantity(count)) have succeeded, with a tuple of their elements."),
            .prose("Threads, errors and empty maybes work as in `\(selectorName)`."),
            .lines(
                parameterDocs(count, noun: "Source")
                    + ["- Returns: A single of the tuple of elements for singles, a maybe for maybes."]
            ),
        ],
        indent: "    "
    )
    out += signature(
        "    ",
        name: "zip",
        generics: numbered(count) { "E\($0): Sendable" },
        parameters: numbered(count) { "_ source\($0): PrimitiveSequence<Trait, E\($0)>" },
        returns: "PrimitiveSequence<Trait, (" + numbered(count) { "E\($0)" }.joined(separator: ", ") + ")>"
    )
    out += nestedCall(
        "        ",
        wrapper: "PrimitiveSequence",
        label: "raw",
        inner: "Observable.zip",
        numbered(count) { "source\($0).source" }
    )
    return out + ["    }"]
}

func traitCollectionForms() -> [String] {
    var out = docComment(
        [
            .prose(
                "Succeeds when every single (or every maybe) of `collection` has succeeded, with `resultSelector` "
                    + "applied to their elements, in the collection's order."
            ),
            .prose(
                traitThreads
                    + " For an empty collection the result succeeds at once with `resultSelector([])`, called on "
                    + "the subscribing thread: RxSwift's behaviour for singles, kept for maybes."
            ),
            .lines([
                "- Parameters:",
                "  - collection: The singles or maybes, all of the same element type.",
                "  - resultSelector: Combines the elements.",
                "- Returns: A single of the combined elements for singles, a maybe for maybes.",
            ]),
        ],
        indent: "    "
    )
    out += [
        "    public static func zip<Sources: Collection, Result: Sendable>(",
        "        _ collection: Sources,",
        "        resultSelector: @escaping @Sendable ([Element]) throws -> Result",
        "    ) -> PrimitiveSequence<Trait, Result> where Sources.Element == PrimitiveSequence<Trait, Element> {",
        "        if collection.isEmpty {",
        "            return PrimitiveSequence(raw: Observable.deferred { .just(try resultSelector([])) })",
        "        }",
        "        return PrimitiveSequence(raw: Observable.zip(collection.map(\\.source), resultSelector: resultSelector))",
        "    }",
        "",
    ]
    out += docComment(
        [
            .prose(
                "Succeeds when every single (or every maybe) of `collection` has succeeded, with an array of their "
                    + "elements, in the collection's order."
            ),
            .prose(
                "Threads, errors and empty maybes work as in `zip(_:resultSelector:)`. For an empty collection "
                    + "the result succeeds at once with an empty array (for maybes too)."
            ),
            .lines([
                "- Parameter collection: The singles or maybes.",
                "- Returns: A single of the array of elements for singles, a maybe for maybes.",
            ]),
        ],
        indent: "    "
    )
    out += [
        "    public static func zip<Sources: Collection>(_ collection: Sources) -> PrimitiveSequence<Trait, [Element]>",
        "    where Sources.Element == PrimitiveSequence<Trait, Element> {",
        "        if collection.isEmpty {",
        "            return PrimitiveSequence(raw: Observable.just([]))",
        "        }",
        "        return PrimitiveSequence(raw: Observable.zip(collection.map(\\.source)))",
        "    }",
    ]
    return out
}

func traitFile() -> [String] {
    var out = [
        "// `zip` for singles and maybes, written once for both traits: the arity overloads (2 to 8, with a result",
        "// selector or into a tuple) and the collection forms, thin wrappers over the observable `zip`",
        "// (Operators/Zip/) whose result keeps the sources' trait.",
        "",
        traitExtension + " {",
    ]
    out += arities.map { traitSelectorArity($0) }.joined(separator: [""])
    out += [""] + traitCollectionForms() + ["}", "", traitExtension + ", Element == any Sendable {"]
    out += arities.map { traitTupleArity($0) }.joined(separator: [""])
    return out + ["}"]
}

// MARK: - Writing

let generatedNote = "// Generated by Scripts/GenerateArity.swift; do not edit. Run `swift Scripts/GenerateArity.swift`."

let files: [(path: String, lines: [String])] = [
    ("Sources/TellerRx/Operators/CombineLatest/CombineLatest+Arity.swift", operatorFile(combineLatestFamily)),
    ("Sources/TellerRx/Operators/Zip/Zip+Arity.swift", operatorFile(zipFamily)),
    ("Sources/TellerRx/Traits/PrimitiveSequence+Zip.swift", traitFile()),
    ("Sources/TellerRx/Traits/Infallible/Infallible+Arity.swift", infallibleFile()),
]

let checkOnly = CommandLine.arguments.dropFirst().contains("--check")
guard FileManager.default.fileExists(atPath: "Package.swift") else {
    FileHandle.standardError.write(Data("Run this from the package root.\n".utf8))
    exit(2)
}
var stale: [String] = []
for file in files {
    let text = ([generatedNote] + file.lines).joined(separator: "\n") + "\n"
    let current = try? String(contentsOfFile: file.path, encoding: .utf8)
    guard current != text else { continue }
    stale.append(file.path)
    if !checkOnly {
        try text.write(toFile: file.path, atomically: true, encoding: .utf8)
    }
}
if checkOnly, !stale.isEmpty {
    let list = stale.map { "  " + $0 }.joined(separator: "\n")
    FileHandle.standardError.write(
        Data("Generated files are out of date; run `swift Scripts/GenerateArity.swift`:\n\(list)\n".utf8)
    )
    exit(1)
}
for path in stale { print("wrote \(path)") }
