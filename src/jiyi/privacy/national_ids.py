"""Identity numbers of other countries, each by the words that name it and its shape.

Read by :mod:`jiyi.privacy.detect` right after the words and a few words on: a number is one of these when the
words that name it come before it, whatever its checksum ("マイナンバー 4821 3307 9915", "Steuer-ID 47 036 892 815").
A company's tax number is public; these are a person's.
"""

from __future__ import annotations

#: (English words, Chinese words, shape, label); the detector reads the number right after the words and a few
#: words on
NATIONAL_IDS: tuple[tuple[str | None, str | None, str, str], ...] = (
    (r"nric|fin\s+(?:number|no\.?)", None, r"[STFGMstfgm]\d{7}[A-Za-z]", "NRIC"),
    (r"mykad|ic\s+(?:number|no\.?)", None, r"\d{6}-?\d{2}-?\d{4}", "MyKad"),
    (r"ic", None, r"\d{6}-\d{2}-\d{4}", "MyKad"),  # "我的IC是 900315-10-5528": bare IC, the dashes say it
    (r"aadhaa?r(?:\s+(?:number|no\.?|card))?", None, r"\d{4}[\s-]?\d{4}[\s-]?\d{4}", "Aadhaar"),
    (r"pan\s+(?:card|number|no\.?)", None, r"[A-Za-z]{5}\d{4}[A-Za-z]", "PAN"),
    (r"tfn|tax\s+file\s+(?:number|no\.?)", None, r"\d{3}[\s-]?\d{3}[\s-]?\d{2,3}", "TFN"),
    (r"sin\s+(?:number|no\.?|#)|social\s+insurance\s+(?:number|no\.?)", None, r"\d{3}[\s-]?\d{3}[\s-]?\d{3}", "SIN"),
    (r"sin", None, r"\d{3}[\s-]\d{3}[\s-]\d{3}", "SIN"),  # "my SIN is 527 314 890"
    (r"social", None, r"\d{3}[\s-]\d{2}[\s-]\d{4}", "SSN"),  # "social 412 83 6671"
    (r"national\s+insurance(?:\s+(?:number|no\.?))?|ni\s+(?:number|no\.?)|nino", None,
     r"[A-Za-z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-Da-d]", "NI number"),
    (r"hkid(?:\s+(?:number|no\.?|card))?", r"香港身份证(?:号码|号)?", r"[A-Za-z]{1,2}\d{6}\(?[\dAa]\)?", "HKID"),
    (r"driver'?s\s+licen[cs]e(?:\s+(?:number|no\.?|#))?", r"驾驶证(?:号码|号)?|驾照(?:号码|号)",
     r"[A-Za-z]{0,3}\d[\d-]{5,17}", "driver's licence number"),
    (r"itin", None, r"9\d{2}[\s-]?\d{2}[\s-]?\d{4}", "ITIN"),  # a person's; a company's tax number is public
    # Taiwan (身分證字號 A123456789) and Hong Kong (身份證 A123456(7)) IDs, by the words said there (as simplified)
    (r"(?:taiwan(?:ese)?\s+)?national\s+id(?:\s+(?:number|no\.?|card))?|taiwan(?:ese)?\s+id(?:\s+(?:number|no\.?|card))?",
     r"身[份分]证(?:字号|号码|号)?|国民身[份分]证(?:字号|号码|号)?", r"[A-Za-z][12489]\d{8}", "身份证号"),
    (None, r"身[份分]证(?:号码|号)?", r"[A-Za-z]{1,2}\d{6}\(?[\dAa]\)?", "身份证号"),
    (None, (r"社保卡(?:号码|号)?|社保(?:个人)?(?:编号|号码|号)|医保卡(?:号码|号)?|(?:港澳|往来港澳|赴台|往来台湾)?通行证(?:号码|号)?|回乡证(?:号码|号)?|"
            r"台胞证(?:号码|号)?|军官证(?:号码|号)?|学籍号"),
     r"[A-Za-z]{0,2}\d{7,18}", "证件号"),
    # Japan's My Number, Korea's resident registration number, Germany's tax ID, the Netherlands' BSN, Spain's DNI/NIE
    (r"my\s+number\s+card|マイナンバー|個人番号", r"个人番号|マイナンバー", r"\d{4}[\s-]?\d{4}[\s-]?\d{4}", "My Number"),
    (r"resident\s+registration\s+(?:number|no\.?)|rrn|주민등록번호", r"居民登录号|주민등록번호", r"\d{6}-?[1-8]\d{6}", "RRN"),
    (r"steuer-?id|steueridentifikationsnummer|tax\s+id(?:\s+(?:number|no\.?))?", None,
     r"\d{2}\s?\d{3}\s?\d{3}\s?\d{3}", "tax ID"),
    (r"bsn|burgerservicenummer", None, r"\d{9}", "BSN"),
    # an insurance policy's number, which with a name opens the policy
    (r"policy\s+(?:number|no\.?|#)|insurance\s+policy", r"保单(?:号码|号)", r"[A-Za-z]{0,3}-?\d{6,20}", "保单号"),
    (r"dni|nie\s+(?:number|no\.?)", None, r"[XYZxyz]?\d{7,8}[A-Za-z]", "DNI"),
    # Ireland's PPS number, the UK's NHS number, Australia's Medicare card, Indonesia's NIK, Vietnam's citizen ID
    # (CCCD/CMND), Thailand's ID, the Philippines' PhilSys and SSS numbers
    (r"ppsn?(?:\s+(?:number|no\.?))?|personal\s+public\s+service\s+(?:number|no\.?)", None, r"\d{7}[A-Wa-w][A-IWa-iw]?",
     "PPS number"),
    (r"nhs\s+(?:number|no\.?)", None, r"\d{3}[\s-]?\d{3}[\s-]?\d{4}", "NHS number"),
    (r"medicare(?:\s+(?:card|number|no\.?))?", None, r"\d{4}[\s-]?\d{5}[\s-]?\d(?:[\s-]?\d)?", "Medicare number"),
    (r"nik|ktp|nomor\s+ktp", None, r"\d{16}|\d{6}[\s-]\d{6}[\s-]\d{4}", "NIK"),
    (r"cccd|cmnd|căn\s+cước(?:\s+công\s+dân)?", None, r"\d{12}|\d{9}|\d{3}[\s-]\d{3}[\s-]\d{3}[\s-]\d{3}", "CCCD"),
    (r"thai\s+id(?:\s+(?:card|number|no\.?))?", None, r"\d[\s-]?\d{4}[\s-]?\d{5}[\s-]?\d{2}[\s-]?\d", "Thai ID"),
    (r"philsys(?:\s+(?:number|no\.?))?|sss\s+(?:number|no\.?)|sss", None, r"\d{4}-?\d{4}-?\d{4}-?\d{4}|\d{2}-?\d{7}-?\d",
     "PhilSys/SSS number"),
    # France's social security number (NIR: sex, year, month, place, order, key), as typed in its groups
    (r"num[ée]ro\s+de\s+s[ée]cu(?:rit[ée]\s+sociale)?|n°\s*(?:de\s+)?s[ée]cu|s[ée]cu|nir|carte\s+vitale", None,
     r"[12]\s?\d{2}\s?\d{2}\s?(?:\d{2}|2[ABab])\s?\d{3}\s?\d{3}(?:\s?\d{2})?", "numéro de sécu"),
)

