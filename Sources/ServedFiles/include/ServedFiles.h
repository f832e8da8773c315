#ifndef VERITRAIL_SERVED_FILES_H
#define VERITRAIL_SERVED_FILES_H

#include <stddef.h>

/// The dashboard's files (server.md §9, Sources/ServedFiles/dashboard/), which `veritrail serve` sends as they
/// are. They are compiled into the binary, so that the server needs nothing beside it and downloads nothing at
/// run time; the files in the repository stay their only source. Each function sets `*size` to the file's length.
const unsigned char *veritrail_dashboard_index_html(size_t *size);
const unsigned char *veritrail_dashboard_app_js(size_t *size);
const unsigned char *veritrail_dashboard_app_css(size_t *size);

#endif
