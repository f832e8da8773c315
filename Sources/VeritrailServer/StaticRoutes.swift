import HTTPTypes
import Hummingbird
import ServedFiles

/// The dashboard (server.md §9), served as it is without a token (§2) at `/`, `/app.js` and `/app.css`. Its
/// files are compiled into the binary
/// (`ServedFiles`), so the dashboard never loads anything from elsewhere; its pages may not be framed by
/// another site and run no script but their own.
extension Routes {
    static func addStatic(_ table: inout RouteTable) {
        let files: [(String, (UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?, String)] = [
            ("/", veritrail_dashboard_index_html, "text/html; charset=utf-8"),
            ("/app.js", veritrail_dashboard_app_js, "text/javascript; charset=utf-8"),
            ("/app.css", veritrail_dashboard_app_css, "text/css; charset=utf-8"),
        ]
        for (path, file, type) in files {
            var size = 0
            let bytes = file(&size).map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            table.add(.get, path) { call in
                try call.query.check([])
                var response = Responses.bytesResponse(bytes, type: type)
                response.headers[.contentSecurityPolicy] =
                    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; "
                    + "base-uri 'none'; form-action 'self'"
                response.headers[.xContentTypeOptions] = "nosniff"
                // A token never rides in a URL, but a page's own address (a scan's, a customer's) is nobody else's.
                response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
                response.headers[.cacheControl] = "no-cache"
                return response
            }
        }
    }
}
