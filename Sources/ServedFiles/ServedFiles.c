// The dashboard's files embedded with C23's #embed, as GazetteerData embeds the gazetteer: no generated source, no copy.
#include "ServedFiles.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char index_html[] = {
#embed "dashboard/index.html"
};

static const unsigned char app_js[] = {
#embed "dashboard/app.js"
};

static const unsigned char app_css[] = {
#embed "dashboard/app.css"
};

const unsigned char *veritrail_dashboard_index_html(size_t *size) {
    *size = sizeof(index_html);
    return index_html;
}

const unsigned char *veritrail_dashboard_app_js(size_t *size) {
    *size = sizeof(app_js);
    return app_js;
}

const unsigned char *veritrail_dashboard_app_css(size_t *size) {
    *size = sizeof(app_css);
    return app_css;
}
