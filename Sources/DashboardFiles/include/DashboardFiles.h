#ifndef VERITRAIL_DASHBOARD_FILES_H
#define VERITRAIL_DASHBOARD_FILES_H

#include <stddef.h>

/// The dashboard's files (server.md §9), compiled into the binary so that `veritrail serve` needs nothing beside
/// it and downloads nothing at run time; Sources/DashboardFiles/web/ stays their only source. Each sets `*size`.
const unsigned char *veritrail_dashboard_index_html(size_t *size);
const unsigned char *veritrail_dashboard_app_js(size_t *size);
const unsigned char *veritrail_dashboard_app_css(size_t *size);

#endif
