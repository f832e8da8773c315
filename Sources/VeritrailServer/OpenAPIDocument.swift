/// The OpenAPI 3.1 document of every route (Resources/openapi.json, kept in the repository and compiled
/// into the binary), served at `GET /v1/openapi.json`; `make test` runs schemathesis against it.
enum OpenAPIDocument {
    static let bytes: [UInt8] = PackageResources.openapi_json
}
