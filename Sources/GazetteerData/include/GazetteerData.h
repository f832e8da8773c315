#ifndef VERITRAIL_GAZETTEER_DATA_H
#define VERITRAIL_GAZETTEER_DATA_H

#include <stddef.h>

/// The gazetteer's TSV (Data/README.md), compiled into the binary so that a `veritrail` copied anywhere still
/// geocodes; Sources/Geocoding/Resources/gazetteer.tsv stays its only source. Sets `*size` to its length.
const unsigned char *veritrail_gazetteer_tsv(size_t *size);

/// The countries' TSV, Sources/Geocoding/Resources/countries.tsv, likewise.
const unsigned char *veritrail_countries_tsv(size_t *size);

/// The first-level regions' TSV, Sources/Geocoding/Resources/regions.tsv, likewise.
const unsigned char *veritrail_regions_tsv(size_t *size);

#endif
