/// Formats measurements as a table for people or as JSON for scripts.
struct Report {
    let measurements: [Measurement]
    let runs: Int

    func table() -> String {
        let header = ["workload", "TellerRx ns/op", "OpenCombine ns/op", "ratio"]
        let rows = measurements.map { measurement -> [String] in
            [
                measurement.workload.name,
                cell(measurement.nanosecondsPerOperation(measurement.tellerRx), decimals: 1),
                cell(measurement.nanosecondsPerOperation(measurement.openCombine), decimals: 1),
                measurement.ratio.map { format($0, decimals: 2) + "×" } ?? "-",
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                return column == 0 ? cells[column] + padding : padding + cells[column]
            }
            .joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        var notes: [String] = []
        for note in measurements.compactMap(\.workload.note) where !notes.contains(note) {
            notes.append(note)
        }
        let legend =
            ["ratio: TellerRx time ÷ OpenCombine time (median of the per-round ratios; above 1, TellerRx is slower)"]
            + notes.map { "note: " + $0 }
        return ([line(header), rule] + rows.map(line) + [""] + legend).joined(separator: "\n")
    }

    func json(build: String) -> String {
        let entries = measurements.map { measurement -> String in
            let workload = measurement.workload
            let fields = [
                "\"name\": \(quoted(workload.name))",
                "\"operations\": \(workload.operations)",
                "\"tellerrx_median_ns_per_op\": \(number(measurement.nanosecondsPerOperation(measurement.tellerRx)))",
                "\"opencombine_median_ns_per_op\": \(number(measurement.nanosecondsPerOperation(measurement.openCombine)))",
                "\"ratio\": \(number(measurement.ratio))",
                "\"note\": \(workload.note.map(quoted) ?? "null")",
                "\"tellerrx_samples_ns\": [\(measurement.tellerRx.map(String.init).joined(separator: ", "))]",
                "\"opencombine_samples_ns\": [\(measurement.openCombine.map(String.init).joined(separator: ", "))]",
            ]
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        return """
            {
              "build": \(quoted(build)),
              "runs": \(runs),
              "results": [
            \(entries.joined(separator: ",\n"))
              ]
            }
            """
    }

    private func cell(_ value: Double?, decimals: Int) -> String {
        value.map { format($0, decimals: decimals) } ?? "n/a"
    }

    private func number(_ value: Double?) -> String {
        value.map { format($0, decimals: 3) } ?? "null"
    }
}

/// `value` rounded to `decimals` digits after the point, without Foundation.
func format(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(scaled) }
    let fraction = String(scaled % scale)
    return sign + String(scaled / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// `string` as a JSON string literal.
private func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
