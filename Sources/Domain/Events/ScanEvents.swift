/// `scan.recorded`: an object's code was scanned and verified (events.md §3.2).
public struct ScanRecorded: PayloadFields {
    public var batchId: String?
    public var brand: String?
    public var category: String
    public var code: String
    public var flash: Bool
    public var location: String?
    public var mode: CaptureMode
    public var notes: String?
    public var productName: String
    public var result: ScanResult
    public var scanId: String
    public var source: ScanSource

    public init(scanId: String, code: String, productName: String, brand: String? = nil, category: String,
                result: ScanResult, mode: CaptureMode, source: ScanSource, flash: Bool, location: String? = nil,
                batchId: String? = nil, notes: String? = nil) {
        self.scanId = scanId; self.code = code; self.productName = productName; self.brand = brand
        self.category = category; self.result = result; self.mode = mode; self.source = source; self.flash = flash
        self.location = location; self.batchId = batchId; self.notes = notes
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        batchId = try s.optionalString("batchId", .text(min: 1, max: 64))
        brand = try s.optionalString("brand", .text(min: 1, max: 100))
        category = try s.string("category", .text(min: 1, max: 60))
        code = try s.string("code", .code)
        flash = try s.boolean("flash")
        location = try s.optionalString("location", .text(min: 1, max: 200))
        mode = try s.choice("mode", CaptureMode.self)
        notes = try s.optionalString("notes", .text(min: 1, max: 500))
        productName = try s.string("productName", .text(min: 1, max: 200))
        result = try s.choice("result", ScanResult.self)
        scanId = try s.string("scanId", .identifier(max: 64))
        source = try s.choice("source", ScanSource.self)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalString("batchId", batchId)
        s.optionalString("brand", brand)
        s.string("category", category)
        s.string("code", code)
        s.boolean("flash", flash)
        s.optionalString("location", location)
        s.choice("mode", mode)
        s.optionalString("notes", notes)
        s.string("productName", productName)
        s.choice("result", result)
        s.string("scanId", scanId)
        s.choice("source", source)
    }

    func checkFields() throws(FieldError) {
        if batchId != nil && mode != .batch {
            throw FieldError(path: "data.batchId", rule: "is allowed only with mode \"batch\"")
        }
    }
}

/// `counterfeit.reported`: a scanned object reported as counterfeit.
public struct CounterfeitReported: PayloadFields {
    public var message: String?
    public var reason: ReportReason
    public var scanId: String

    public init(scanId: String, reason: ReportReason, message: String? = nil) {
        self.scanId = scanId; self.reason = reason; self.message = message
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        message = try s.optionalString("message", .text(min: 1, max: 280))
        reason = try s.choice("reason", ReportReason.self)
        scanId = try s.string("scanId", .identifier(max: 64))
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalString("message", message)
        s.choice("reason", reason)
        s.string("scanId", scanId)
    }

    func checkFields() throws(FieldError) {
        if reason == .other && message == nil {
            throw FieldError(path: "data.message", rule: "is required when reason is \"other\"")
        }
    }
}

/// `settings.changed`: an account's scanner and history settings.
public struct SettingsChanged: PayloadFields {
    public var captureMode: CaptureMode?
    public var color: ScannerColor?
    public var flash: Bool?
    public var historyWindow: HistoryWindow?
    public var username: String

    public init(username: String, flash: Bool? = nil, captureMode: CaptureMode? = nil,
                historyWindow: HistoryWindow? = nil, color: ScannerColor? = nil) {
        self.username = username; self.flash = flash; self.captureMode = captureMode
        self.historyWindow = historyWindow; self.color = color
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        captureMode = try s.optionalChoice("captureMode", CaptureMode.self)
        color = try s.optionalChoice("color", ScannerColor.self)
        flash = try s.optionalBoolean("flash")
        historyWindow = try s.optionalChoice("historyWindow", HistoryWindow.self)
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalChoice("captureMode", captureMode)
        s.optionalChoice("color", color)
        s.optionalBoolean("flash", flash)
        s.optionalChoice("historyWindow", historyWindow)
        s.string("username", username)
    }

    func checkFields() throws(FieldError) {
        if captureMode == nil && color == nil && flash == nil && historyWindow == nil {
            throw FieldError(path: "data", rule: "must change at least one of flash, captureMode, historyWindow, color")
        }
    }
}

/// `search.performed`: an account searched its history.
public struct SearchPerformed: PayloadFields {
    public var query: String
    public var username: String

    public init(username: String, query: String) { self.username = username; self.query = query }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        query = try s.string("query", .text(min: 1, max: 100))
        username = try s.string("username", .username)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.string("query", query)
        s.string("username", username)
    }
}
