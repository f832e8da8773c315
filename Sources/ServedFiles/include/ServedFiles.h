#ifndef VERITRAIL_SERVED_FILES_H
#define VERITRAIL_SERVED_FILES_H

#include <stddef.h>

/// The files `veritrail serve` sends as they are: the dashboard (server.md §9, Sources/ServedFiles/dashboard/) and
/// the API's OpenAPI document (Sources/ServedFiles/openapi.json). They are compiled into the binary, so that the
/// server needs nothing beside it and downloads nothing at run time; the files in the repository stay their only
/// source. Each function sets `*size` to the file's length.
const unsigned char *veritrail_dashboard_index_html(size_t *size);
const unsigned char *veritrail_dashboard_app_js(size_t *size);
const unsigned char *veritrail_dashboard_app_css(size_t *size);
const unsigned char *veritrail_openapi_json(size_t *size);

#endif
