import Crypto
import HTTPTypes
import Hummingbird
import VeritrailKit

/// The writing commands of cli.md §3 as routes (server.md §3). The actor is the token's account, which
/// the gate finds unlocked (its session's grant); the body holds the command's values under their field
/// names of events.md. `Idempotency-Key` is the command line's `--id`: a retry of a write already in the
/// log answers 200 with its events and writes nothing; the same key for other data is 409.
extension Routes {
    static func addWrites(_ table: inout RouteTable) {
        table.add(.post, "/v1/scans") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["code", "productName", "category", "result", "brand", "location", "notes",
                                                          "source", "mode", "flash", "scanId"])
            var scan = NewScan(code: try body.required("code"), productName: try body.required("productName"),
                               category: try body.required("category"),
                               result: try body.choice("result", ScanResult.self, required: true) ?? .authentic)
            scan.brand = try body.string("brand")
            scan.location = try body.string("location")
            scan.notes = try body.string("notes")
            scan.source = try body.choice("source", ScanSource.self) ?? .camera
            scan.mode = try body.choice("mode", CaptureMode.self)
            scan.flash = try body.bool("flash")
            let options = try writeOptions(call)
            // A retry must write the same scan: its id follows from the key when the body gives none.
            scan.scanId = try body.string("scanId") ?? options.eventID.map { derivedID("s-", key: $0) }
            let actor = try await call.authenticate().username
            let store = call.state.store
            let newScan = scan
            let recorded = try await call.state.blocking { () throws(VeritrailError) in try store.scan(newScan, as: actor, options: options) }
            var response = Responses.json(recorded.scan ?? .null, status: recorded.event.isNew ? .created : .ok)
            // The event's seq and id, which the SCAN answer does not hold: `scan --server` prints them as `scan` does.
            response.headers[HTTPField.Name("Veritrail-Event")!] = "\(recorded.event.seq) \(recorded.event.id)"
            return response
        }
        table.add(.post, "/v1/scans/{scanId}/report") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["reason", "message"])
            let reason = try body.choice("reason", ReportReason.self, required: true) ?? .other
            let message = try body.string("message")
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let store = call.state.store
            let scanId = call.parameter("scanId")
            return try await written(call) { () throws(VeritrailError) in
                try store.report(scanId: try store.resolveScanId(scanId), reason: reason, message: message, as: actor, options: options)
            }
        }
        table.add(.post, "/v1/accounts") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["username", "name", "email", "role", "phone", "website", "address",
                                                          "country", "company", "passcode"])
            var account = NewAccount(username: try body.required("username"), name: try body.required("name"),
                                     email: try body.required("email"), role: try body.choice("role", Role.self) ?? .customer)
            account.phone = try body.string("phone")
            account.website = try body.string("website")
            let address = try body.object("address", allowed: AccountFields.address)
            account.street = try address?.string("street")
            account.suite = try address?.string("suite")
            account.city = try address?.string("city")
            account.zipcode = try address?.string("zipcode")
            account.country = try body.string("country")
            let company = try body.object("company", allowed: AccountFields.company)
            account.company = try company?.string("name")
            account.catchPhrase = try company?.string("catchPhrase")
            account.bs = try company?.string("bs")
            let passcode = try body.string("passcode")
            let options = try writeOptions(call)
            let store = call.state.store
            // A customer registering itself comes without a token, with its passcode; anyone else is an admin's act.
            if call.request.headers[.authorization] == nil {
                guard let passcode else {
                    throw Problem.unauthorized("registering yourself as a customer needs your new passcode (\"passcode\"); anyone else is registered by an admin, with a token")
                }
                call.user = account.username
                let registering = account
                return try await placedAndWritten(call) { placed throws(VeritrailError) in
                    try store.register(registering, newPasscode: { _ in passcode }, options: options, placed: placed)
                }
            }
            guard passcode == nil else {
                throw Problem.badRequest("the field \"passcode\" is for a customer registering itself, without a token: an account registered by an admin sets its own passcode")
            }
            let actor = try await call.authenticate().username
            let registering = account
            return try await placedAndWritten(call) { placed throws(VeritrailError) in
                try store.register(registering, as: actor, options: options, placed: placed)
            }
        }
        table.add(.patch, "/v1/accounts/{user}") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["name", "phone", "website", "address", "country", "company"])
            var changes = AccountChanges()
            changes.name = try body.string("name")
            changes.phone = try body.string("phone")
            changes.website = try body.string("website")
            let address = try body.object("address", allowed: AccountFields.address)
            changes.street = try address?.string("street")
            changes.suite = try address?.string("suite")
            changes.city = try address?.string("city")
            changes.zipcode = try address?.string("zipcode")
            changes.country = try body.string("country")
            let company = try body.object("company", allowed: AccountFields.company)
            changes.company = try company?.string("name")
            changes.catchPhrase = try company?.string("catchPhrase")
            changes.bs = try company?.string("bs")
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let store = call.state.store
            let user = call.parameter("user")
            let update = changes
            return try await placedAndWritten(call) { placed throws(VeritrailError) in
                try store.updateAccount(user, update, as: actor, options: options, placed: placed)
            }
        }
        table.add(.delete, "/v1/accounts/{user}") { call in
            try call.query.check([])
            let bytes = try await call.body()
            var reason: String?
            if !bytes.isEmpty { reason = try call.jsonObject(bytes, allowed: ["reason"]).string("reason") }
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let store = call.state.store
            let user = call.parameter("user")
            let why = reason
            return try await written(call) { () throws(VeritrailError) in try store.deleteAccount(user, reason: why, as: actor, options: options) }
        }
        table.add(.put, "/v1/accounts/{user}/passcode") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["passcode", "current"])
            let new = try body.required("passcode")
            let current = try body.string("current")
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let store = call.state.store
            let user = call.parameter("user")
            return try await written(call) { () throws(VeritrailError) in
                try store.setPasscode(to: new, for: user, current: current, as: actor, options: options)
            }
        }
        table.add(.post, "/v1/customers/{user}/status") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["status", "note"])
            guard let text = try body.string("status", required: true), let status = CustomerStatus(rawValue: text.uppercased()) else {
                throw Problem.badRequest("the field \"status\" must be one of \(CustomerStatus.choices.map(\.rawValue).joined(separator: ", "))")
            }
            let note = try body.string("note")
            let options = try writeOptions(call)
            let actor = try await call.authenticate().username
            let store = call.state.store
            let user = call.parameter("user")
            return try await written(call) { () throws(VeritrailError) in
                try store.changeCustomerStatus(user, to: status, note: note, as: actor, options: options)
            }
        }
        table.add(.patch, "/v1/settings/{user}") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["flash", "captureMode", "historyWindow", "color"])
            let flash = try body.bool("flash")
            let mode = try body.choice("captureMode", CaptureMode.self)
            let window = try body.choice("historyWindow", HistoryWindow.self)
            let color = try body.choice("color", ScannerColor.self)
            let options = try writeOptions(call)
            let actor = try await ownAccount(call)
            let store = call.state.store
            return try await written(call) { () throws(VeritrailError) in
                try store.updateSettings(flash: flash, captureMode: mode, historyWindow: window, color: color, as: actor, options: options)
            }
        }
        table.add(.post, "/v1/searches") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["query", "window", "limit"])
            let text = try body.required("query")
            let window = try body.choice("window", HistoryWindow.self)
            let limit = try body.int("limit") ?? 50
            guard (1...1000).contains(limit) else { throw Problem.badRequest("the field \"limit\" must be 1–1000, got \(limit)") }
            let options = try writeOptions(call)
            // The answer is `history --search`'s, which a customer does not read (server.md §2, "who reads what"):
            // refused before the search is recorded.
            let actor = try authorize(try await call.authenticate(), viewing: nil, owner: nil, adminOnly: false)
            let store = call.state.store
            let (answer, alreadyRecorded) = try await call.state.blocking { () throws(VeritrailError) in
                try store.recordSearch(text, window: window, limit: Int(limit), as: actor, options: options)
            }
            return Responses.json(answer, status: alreadyRecorded ? .ok : .created)
        }
        table.add(.put, "/v1/fitness/{user}") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["bodyType", "heightInches"])
            let bodyType = try body.int("bodyType", required: true) ?? 0
            let height = try body.int("heightInches", required: true) ?? 0
            let options = try writeOptions(call)
            let actor = try await ownAccount(call)
            let store = call.state.store
            return try await written(call) { () throws(VeritrailError) in
                try store.setFitness(bodyType: bodyType, heightInches: height, as: actor, options: options)
            }
        }
        table.add(.put, "/v1/goals/{user}") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["metric", "target", "month"])
            let metric = try body.choice("metric", GoalMetric.self, required: true) ?? .scans
            let target = try body.int("target", required: true) ?? 0
            var month: Month?
            if let text = try body.string("month") {
                guard let value = Month(text) else { throw Problem.badRequest("the field \"month\" must be YYYY-MM, got \"\(text.prefix(100))\"") }
                month = value
            }
            let options = try writeOptions(call)
            let actor = try await ownAccount(call)
            let store = call.state.store
            let inMonth = month
            return try await written(call) { () throws(VeritrailError) in
                try store.setGoal(metric, target: target, month: inMonth, as: actor, options: options)
            }
        }
        table.add(.post, "/v1/fitness/{user}/sessions") { call in
            try call.query.check([])
            let body = try await call.jsonObject(allowed: ["sessionId", "date", "park", "startTime", "endTime", "jumps", "calories"])
            let park = try body.required("park")
            let start = try body.required("startTime")
            let end = try body.required("endTime")
            let jumps = try body.int("jumps", required: true) ?? 0
            let calories = try body.int("calories", required: true) ?? 0
            let date = try body.string("date")
            let options = try writeOptions(call)
            let sessionId = try body.string("sessionId") ?? options.eventID.map { derivedID("ses-", key: $0) }
            let actor = try await call.authenticate().username
            let store = call.state.store
            let user = call.parameter("user")
            return try await written(call) { () throws(VeritrailError) in
                try store.recordSession(park: park, start: start, end: end, jumps: jumps, calories: calories, date: date,
                                        sessionId: sessionId, for: user, as: actor, options: options).events
            }
        }
    }

    /// `Idempotency-Key` as the write's `--id`, in the form `--id` takes.
    static func writeOptions(_ call: Call) throws(Problem) -> WriteOptions {
        guard let key = call.request.headers[HTTPField.Name("Idempotency-Key")!] else { return WriteOptions() }
        guard (1...64).contains(key.utf8.count), key.utf8.allSatisfy(isIDByte) else {
            throw Problem.badRequest("Idempotency-Key must be 1–64 characters of A–Z a–z 0–9 . _ : -")
        }
        return WriteOptions(eventID: key)
    }

    /// The id a write draws at random on the command line (a scan's, a session's), made from its
    /// `Idempotency-Key` so that a retry writes the same one: `prefix` + the key, or, when that would pass the
    /// 64 characters of an id (events.md), `prefix` + the start of the key's SHA-256 in hex, so that every key
    /// `--id` takes is taken here too.
    static func derivedID(_ prefix: String, key: String) -> String {
        let limit = 64
        if prefix.utf8.count + key.utf8.count <= limit { return prefix + key }
        return prefix + String(Hex.encode(SHA256.hash(data: Array(key.utf8))).prefix(limit - prefix.utf8.count))
    }

    private static func isIDByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x3A || b == 0x2D
    }

    /// The token's account when the route's `{user}` is that account: settings, fitness and goals are set
    /// by the account itself (events.md "Who may").
    static func ownAccount(_ call: Call) async throws -> String {
        let viewer = try await call.authenticate()
        guard call.parameter("user") == viewer.username else {
            throw Problem.forbidden("\(viewer.username) may set only its own (\(call.parameter("user").prefix(64)) is another account)")
        }
        return viewer.username
    }

    /// Runs a write and answers `{"events": [...]}` as `--json` does: 201, or 200 when every event was in the
    /// log already (a retry under the same `Idempotency-Key`).
    static func written(_ call: Call, _ write: @escaping @Sendable () throws(VeritrailError) -> [AppendedEvent]) async throws -> Response {
        try await placedAndWritten(call) { _ throws(VeritrailError) in try write() }
    }

    /// `written` for a write that places an address's city (`register`, `account update`): the answer has the
    /// placement beside the events, as the command's `--json` answer has it.
    static func placedAndWritten(_ call: Call, _ write: @escaping @Sendable (_ placed: CityPlacementReport) throws(VeritrailError) -> [AppendedEvent])
        async throws -> Response {
        let (appended, placement) = try await call.state.blocking { () throws(VeritrailError) in
            var placement: JSONValue?
            let appended = try write { city, placed in placement = placed.answer(city: city) }
            return (appended, placement)
        }
        let isNew = appended.isEmpty || appended.contains(where: \.isNew)
        return Responses.json(Answers.events(appended, placement: placement), status: isNew ? .created : .ok)
    }
}

/// The members of an account's `address` and `company` objects, under their names of events.md
/// `account.registered` (`country`, beside them, only helps place the city).
enum AccountFields {
    static let address: Set<String> = ["street", "suite", "city", "zipcode"]
    static let company: Set<String> = ["name", "catchPhrase", "bs"]
}
