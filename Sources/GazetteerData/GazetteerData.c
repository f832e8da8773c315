// The gazetteer embedded with C23's #embed, which reads the file at compile time relative to this one:
// no generated source and no copy of the data; compiling 8 MB this way takes a fraction of a second.
#include "GazetteerData.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char gazetteer[] = {
#embed "../Geocoding/Resources/gazetteer.tsv"
};

static const unsigned char countries[] = {
#embed "../Geocoding/Resources/countries.tsv"
};

static const unsigned char regions[] = {
#embed "../Geocoding/Resources/regions.tsv"
};

const unsigned char *veritrail_gazetteer_tsv(size_t *size) {
    *size = sizeof(gazetteer);
    return gazetteer;
}

const unsigned char *veritrail_countries_tsv(size_t *size) {
    *size = sizeof(countries);
    return countries;
}

const unsigned char *veritrail_regions_tsv(size_t *size) {
    *size = sizeof(regions);
    return regions;
}
