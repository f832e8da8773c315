/// A postal address (jsonplaceholder's user address without its `geo`, which is a field of its own).
public struct Address: NestedFields {
    public var city: String
    public var street: String
    public var suite: String?
    public var zipcode: String

    public init(street: String, suite: String? = nil, city: String, zipcode: String) {
        self.street = street; self.suite = suite; self.city = city; self.zipcode = zipcode
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        city = try s.string("city", .text(min: 1, max: 100))
        street = try s.string("street", .text(min: 1, max: 100))
        suite = try s.optionalString("suite", .text(min: 0, max: 100))
        zipcode = try s.string("zipcode", .text(min: 1, max: 20))
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.string("city", city)
        s.string("street", street)
        s.optionalString("suite", suite)
        s.string("zipcode", zipcode)
    }
}

/// Coordinates found by geocoding an address.
public struct Geo: NestedFields {
    public var lat: Double
    public var lng: Double

    public init(lat: Double, lng: Double) { self.lat = lat; self.lng = lng }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        lat = try s.number("lat", -90...90)
        lng = try s.number("lng", -180...180)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.number("lat", lat)
        s.number("lng", lng)
    }
}

/// The company an account works for.
public struct Company: NestedFields {
    public var bs: String?
    public var catchPhrase: String?
    public var name: String

    public init(name: String, catchPhrase: String? = nil, bs: String? = nil) {
        self.name = name; self.catchPhrase = catchPhrase; self.bs = bs
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        bs = try s.optionalString("bs", .text(min: 0, max: 200))
        catchPhrase = try s.optionalString("catchPhrase", .text(min: 0, max: 200))
        name = try s.string("name", .text(min: 1, max: 100))
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.optionalString("bs", bs)
        s.optionalString("catchPhrase", catchPhrase)
        s.string("name", name)
    }
}

/// A salted PBKDF2 hash of a passcode: the only form in which a passcode is ever kept.
public struct Credential: NestedFields {
    public var hash: String
    public var iterations: Int64
    public var salt: String
    public var scheme: CredentialScheme

    public init(hash: String, iterations: Int64, salt: String, scheme: CredentialScheme = .pbkdf2SHA256) {
        self.hash = hash; self.iterations = iterations; self.salt = salt; self.scheme = scheme
    }

    public init<S: FieldSource>(from s: inout S) throws(FieldError) {
        hash = try s.string("hash", .base64(bytes: 32...32))
        iterations = try s.integer("iterations", 100_000...10_000_000)
        salt = try s.string("salt", .base64(bytes: 16...64))
        scheme = try s.choice("scheme", CredentialScheme.self)
    }

    public func write<S: FieldSink>(to s: inout S) {
        s.string("hash", hash)
        s.integer("iterations", iterations)
        s.string("salt", salt)
        s.choice("scheme", scheme)
    }
}
