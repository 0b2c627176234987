"""A camera's EXIF block, written by hand: the APP1 segment a camera puts after a JPEG's SOI.

    jpeg = with_exif(jpeg, Camera(make="FUJIFILM", model="X-T30", ...))

The `vips` command cannot write arbitrary EXIF tags, so the TIFF structure is packed with
`struct`: IFD0 (make, model, orientation, resolution, the date), its Exif IFD (exposure, the
date taken, focal length, pixel size) and its GPS IFD (latitude, longitude, altitude), little
endian as most cameras write it. Every value longer than four bytes goes in a data area after
its IFD's table, at an even offset, as TIFF requires.
"""

import struct
from dataclasses import dataclass

# Field types: (TIFF type code, struct format of one value).
BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED = 1, 2, 3, 4, 5, 7
FORMATS = {BYTE: "B", SHORT: "H", LONG: "I", RATIONAL: "II"}

TIFF_HEADER = b"II*\x00" + struct.pack("<I", 8)  # little endian, IFD0 right after the header
IFD_POINTER_SIZE = 4


@dataclass
class Camera:
    """What one photo's EXIF says."""

    make: str
    model: str
    taken: str  # "YYYY:MM:DD HH:MM:SS"
    latitude: float  # degrees, negative south
    longitude: float  # degrees, negative west
    altitude: float  # metres
    width: int
    height: int
    orientation: int = 1  # 1: stored upright; 6: turn 90° clockwise to view
    exposure: tuple = (1, 250)  # seconds, as a fraction
    f_number: tuple = (56, 10)
    iso: int = 200
    focal_length: tuple = (35, 1)  # millimetres


def encode(kind, value):
    """The bytes of a field's value and its count of values."""
    if kind == ASCII:
        raw = value.encode("ascii") + b"\0"
        return raw, len(raw)
    if kind == UNDEFINED:
        return value, len(value)
    values = value if isinstance(value, list) else [value]
    flat = [part for item in values for part in (item if kind == RATIONAL else (item,))]
    return struct.pack("<" + FORMATS[kind] * len(values), *flat), len(values)


def ifd_size(entries):
    """The bytes an IFD takes, its data area included."""
    size = 2 + 12 * len(entries) + IFD_POINTER_SIZE
    for _, kind, value in entries:
        raw, _ = encode(kind, value)
        if len(raw) > 4:
            size += len(raw) + len(raw) % 2
    return size


def ifd(entries, offset):
    """An IFD that starts at `offset` from the TIFF header: the table of entries, sorted by
    tag, no next IFD, then the values that do not fit in an entry."""
    entries = sorted(entries)
    data_start = offset + 2 + 12 * len(entries) + IFD_POINTER_SIZE
    table, data = struct.pack("<H", len(entries)), b""
    for tag, kind, value in entries:
        raw, count = encode(kind, value)
        if len(raw) <= 4:
            field = raw.ljust(4, b"\0")
        else:
            field = struct.pack("<I", data_start + len(data))
            data += raw + b"\0" * (len(raw) % 2)
        table += struct.pack("<HHI", tag, kind, count) + field
    return table + struct.pack("<I", 0) + data


def degrees(value):
    """Degrees, minutes and seconds as three rationals, seconds to a hundredth."""
    value = abs(value)
    whole = int(value)
    minutes = int((value - whole) * 60)
    hundredths = round(((value - whole) * 60 - minutes) * 6000)
    return [(whole, 1), (minutes, 1), (hundredths, 100)]


def tiff(camera):
    """The TIFF structure of `camera`'s EXIF: IFD0, then its Exif IFD, then its GPS IFD."""
    exif = [
        (0x829A, RATIONAL, [camera.exposure]),
        (0x829D, RATIONAL, [camera.f_number]),
        (0x8827, SHORT, camera.iso),
        (0x9000, UNDEFINED, b"0232"),
        (0x9003, ASCII, camera.taken),  # DateTimeOriginal
        (0x9004, ASCII, camera.taken),  # DateTimeDigitized
        (0x920A, RATIONAL, [camera.focal_length]),
        (0xA001, SHORT, 1),  # sRGB
        (0xA002, LONG, camera.width),
        (0xA003, LONG, camera.height),
    ]
    gps = [
        (0x0000, BYTE, [2, 3, 0, 0]),
        (0x0001, ASCII, "N" if camera.latitude >= 0 else "S"),
        (0x0002, RATIONAL, degrees(camera.latitude)),
        (0x0003, ASCII, "E" if camera.longitude >= 0 else "W"),
        (0x0004, RATIONAL, degrees(camera.longitude)),
        (0x0005, BYTE, 0 if camera.altitude >= 0 else 1),
        (0x0006, RATIONAL, [(round(abs(camera.altitude) * 10), 10)]),
    ]
    ifd0 = [
        (0x010F, ASCII, camera.make),
        (0x0110, ASCII, camera.model),
        (0x0112, SHORT, camera.orientation),
        (0x011A, RATIONAL, [(72, 1)]),
        (0x011B, RATIONAL, [(72, 1)]),
        (0x0128, SHORT, 2),  # inches
        (0x0131, ASCII, "Firmware 1.20"),
        (0x0132, ASCII, camera.taken),
        (0x0213, SHORT, 2),  # YCbCr co-sited, as cameras write it
        (0x8769, LONG, 0),  # the Exif IFD's offset, set below
        (0x8825, LONG, 0),  # the GPS IFD's offset, set below
    ]
    # An entry's size does not depend on its value, so the offsets follow from the sizes.
    exif_offset = len(TIFF_HEADER) + ifd_size(ifd0)
    gps_offset = exif_offset + ifd_size(exif)
    ifd0[-2:] = [(0x8769, LONG, exif_offset), (0x8825, LONG, gps_offset)]
    return (TIFF_HEADER + ifd(ifd0, len(TIFF_HEADER)) + ifd(exif, exif_offset)
            + ifd(gps, gps_offset))


def with_exif(jpeg, camera):
    """`jpeg` with `camera`'s EXIF as an APP1 segment right after its SOI. The JPEG should
    have no metadata of its own (the `vips` command's `jpegsave --strip`)."""
    if jpeg[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG: no SOI marker")
    payload = b"Exif\0\0" + tiff(camera)
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + segment + jpeg[2:]
