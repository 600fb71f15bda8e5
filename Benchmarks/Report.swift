/// Formats measurements as a table for people or as JSON for scripts.
struct Report {
    let measurements: [Measurement]
    let runs: Int

    /// How many times slower than its floor `measurement` is: the median, over the interleaved
    /// runs, of the run's time divided by the floor's time in the same round (robust to load
    /// drifting during the measurement). `nil` when the floor was not measured.
    func ratioToFloor(_ measurement: Measurement) -> Double? {
        guard let floorName = measurement.benchmark.floor,
            let floor = measurements.first(where: { $0.benchmark.name == floorName }),
            floor.samples.count == measurement.samples.count
        else { return nil }
        let ratios = zip(measurement.samples, floor.samples).map { Double($0) / Double(max($1, 1)) }.sorted()
        let middle = ratios.count / 2
        let ratio = ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
        // Both sides ran their own operation count; compare per operation.
        return ratio * Double(floor.benchmark.operations) / Double(measurement.benchmark.operations)
    }

    func table() -> String {
        let header = ["workload", "median ns/op", "min ns/op", "ops/s", "× floor"]
        var rows: [[String]] = []
        for measurement in measurements {
            let ratio: String
            if let value = ratioToFloor(measurement) {
                ratio = format(value, decimals: 2) + "×"
            } else {
                // Teller's workloads have no closure-only floor to compare with.
                ratio = measurement.benchmark.name.hasPrefix(floorName("")) ? "(floor)" : "-"
            }
            rows.append([
                measurement.benchmark.name,
                format(measurement.medianNanosecondsPerOperation, decimals: 1),
                format(measurement.minimumNanosecondsPerOperation, decimals: 1),
                format(measurement.operationsPerSecond, decimals: 0),
                ratio,
            ])
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            .joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    func json(build: String) -> String {
        let entries = measurements.map { measurement -> String in
            let benchmark = measurement.benchmark
            let fields = [
                "\"name\": \(quoted(benchmark.name))",
                "\"floor\": \(benchmark.floor.map(quoted) ?? "null")",
                "\"operations\": \(benchmark.operations)",
                "\"median_ns_per_op\": \(format(measurement.medianNanosecondsPerOperation, decimals: 3))",
                "\"min_ns_per_op\": \(format(measurement.minimumNanosecondsPerOperation, decimals: 3))",
                "\"ops_per_second\": \(format(measurement.operationsPerSecond, decimals: 0))",
                "\"ratio_to_floor\": \(ratioToFloor(measurement).map { format($0, decimals: 3) } ?? "null")",
                "\"samples_ns\": [\(measurement.samples.map(String.init).joined(separator: ", "))]",
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
}

/// `value` with exactly `decimals` digits after the point (no Foundation needed).
func format(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard decimals > 0 else { return String(Int(scaled)) }
    let integer = Int(scaled) / Int(scale)
    let fraction = abs(Int(scaled) % Int(scale))
    let digits = String(fraction)
    let sign = value < 0 && integer == 0 ? "-" : ""
    return sign + String(integer) + "." + String(repeating: "0", count: decimals - digits.count) + digits
}

private func quoted(_ string: String) -> String {
    var result = "\""
    for character in string.unicodeScalars {
        switch character {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default: result.unicodeScalars.append(character)
        }
    }
    return result + "\""
}
