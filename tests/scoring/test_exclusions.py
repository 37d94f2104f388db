"""RULES.md §8/§9 exclusions: the table as data, and every listed exclusion exercised.

``RULEBOOK`` restates the §8 tables (id, 名, points, shape, excludes) so that an edit to a
yaku record that drifts from the rulebook fails here. ``test_every_exclusion_is_applied`` scores
a fixed set of hands that between them make every listed pair (A excludes B) hold together in
the chosen reading, and checks that B is then never counted.
"""

from __future__ import annotations

from mjenv.scoring import YAKU, holding_yaku, score_hand
from mjenv.scoring.yaku import CATEGORIES
from tests.scoring.test_yaku import ROWS

SHAPES = {"S": {"standard"}, "7": {"seven_pairs"}, "K": {"knitted"},
          "O": {"thirteen_orphans"},
          "any": {"standard", "seven_pairs", "knitted", "thirteen_orphans"}}

RULEBOOK = [
    ("pinghu", "平胡", 2, "S", ""),
    ("duiduihu", "对对胡", 6, "S", ""),
    ("jiuzi_lianhuan", "九子连环", 80, "S", "qingyise menqing"),
    ("lian_qidui", "连七对", 60, "7", "qiduizi qingyise menqing"),
    ("qiduizi", "七对子", 10, "7", "menqing"),
    ("shisan_buda", "十三不搭", 6, "K", "menqing"),
    ("qixing_bukao", "七星不靠", 10, "K", "shisan_buda menqing"),
    ("buda_long", "不搭龙", 10, "K", "shisan_buda menqing"),
    ("buda_sanxiangfeng", "不搭三相逢", 10, "K", "shisan_buda menqing"),
    ("shisanyao", "十三幺", 60, "O", "menqing"),
    ("da_qixing", "大七星", 80, "7", "qiduizi ziyise menqing liang_xushu san_xushu"),
    ("menqing", "门清", 1, "any", ""),
    ("dutin", "独听", 2, "S", ""),
    ("duipeng", "对碰", 1, "S", ""),
    ("jiadu", "假独", 1, "S", ""),
    ("zimo", "自摸", 1, "any", ""),
    ("buqiuren", "不求人", 4, "any", "menqing zimo"),
    ("banqiuren", "半求人", 4, "S", "zimo dutin"),
    ("quanqiuren", "全求人", 6, "S", "dutin"),
    ("lingshang", "岭上开花", 6, "any", "zimo"),
    ("haidi", "海底捞月", 6, "any", "zimo"),
    ("hedi", "河底捞鱼", 6, "any", ""),
    ("qianggang", "抢杠", 6, "any", "juezhang"),
    ("juezhang", "绝张", 2, "any", ""),
    ("renhu", "人胡", 20, "any", "menqing"),
    ("dihu", "地胡", 40, "any", "buqiuren menqing zimo"),
    ("tianhu", "天胡", 40, "any", "buqiuren menqing zimo"),
    ("quemen", "缺门", 1, "any", ""),
    ("wumenqi", "五门齐", 6, "S", ""),
    ("hunyise", "混一色", 6, "any", ""),
    ("qingyise", "清一色", 20, "any", ""),
    ("ziyise", "字一色", 40, "any", "duiduihu hunlaotou hunquan liang_xushu san_xushu"),
    ("hunquan", "混全带幺", 4, "S", ""),
    ("chunquan", "纯全带幺", 6, "S", "hunquan"),
    ("hunlaotou", "混老头", 20, "S", "hunquan duiduihu"),
    ("qinglaotou", "清老头", 40, "S",
     "chunquan hunquan hunlaotou duiduihu "
     "liang_xushu san_xushu jishu_duidui laoshao"),
    ("jiangyan", "将眼", 1, "S", ""),
    ("duanyao", "断幺九", 1, "any", ""),
    ("dayuwu", "大于五", 6, "any", ""),
    ("xiaoyuwu", "小于五", 6, "any", ""),
    ("quanda", "全大", 20, "any", "dayuwu san_xushu"),
    ("quanzhong", "全中", 20, "any", "duanyao san_xushu"),
    ("quanxiao", "全小", 20, "any", "xiaoyuwu san_xushu"),
    ("san_xushu", "三序数", 10, "any", ""),
    ("liang_xushu", "两序数", 20, "any", "san_xushu duiduihu"),
    ("yitiaolong", "一条龙", 6, "S", "laoshao"),
    ("laoshao", "老少", 1, "S", ""),
    ("fengyao", "逢幺", 4, "S", "laoshao"),
    ("laoshao_shuangshun", "老少双顺", 6, "S", "laoshao"),
    ("laoshao_shuangdui", "老少双对", 10, "S", "laoshao duiduihu san_xushu"),
    ("quandai", "全带", 10, "S", ""),
    ("jishu_duidui", "奇数对对胡", 10, "S", "duiduihu"),
    ("oushu_duidui", "偶数对对胡", 10, "S", "duiduihu duanyao"),
    ("jingtong", "镜同胡", 6, "S", ""),
    ("ertongke", "二同刻", 20, "S", "duiduihu san_xushu"),
    ("sanbuke", "三步刻", 20, "S", "duiduihu san_xushu"),
    ("sanyuanpai", "三元牌", 1, "S", ""),
    ("menfeng", "门风牌", 1, "S", ""),
    ("quanfeng", "圈风牌", 1, "S", ""),
    ("xiao_sanfeng", "小三风", 6, "S", ""),
    ("da_sanfeng", "大三风", 10, "S", ""),
    ("xiao_sanyuan", "小三元", 10, "S", "sanyuanpai"),
    ("da_sanyuan", "大三元", 20, "S", "sanyuanpai"),
    ("xiao_sixi", "小四喜", 30, "S", "da_sanfeng xiao_sanfeng"),
    ("da_sixi", "大四喜", 60, "S", "da_sanfeng duiduihu menfeng quanfeng liang_xushu san_xushu"),
    ("sanse_xiao_tongke", "三色小同刻", 6, "S", ""),
    ("sanse_tongke", "三色同刻", 10, "S", ""),
    ("sanse_lianke", "三色连刻", 6, "S", ""),
    ("sanxiangfeng", "三相逢", 6, "S", "jingtong"),
    ("sanse_sanbugao", "三色三步高", 4, "S", ""),
    ("hualong", "花龙", 4, "S", ""),
    ("sanse_shuanglong", "三色双龙会", 10, "S", "laoshao_shuangshun laoshao jingtong jiangyan"),
    ("xiao_sanlianke", "小三连刻", 6, "S", ""),
    ("sanlianke", "三连刻", 10, "S", ""),
    ("xiao_silianke", "小四连刻", 20, "S", "sanlianke xiao_sanlianke"),
    ("silianke", "四连刻", 30, "S", "sanlianke duiduihu"),
    ("yise_sanbugao", "一色三步高", 6, "S", ""),
    ("yise_sibugao", "一色四步高", 20, "S", "yise_sanbugao"),
    ("yibangao", "一般高", 1, "S", ""),
    ("liang_bangao", "两般高", 10, "S", "yibangao"),
    ("tai_bangao", "太般高", 10, "S", "yibangao"),
    ("qing_bangao", "清般高", 20, "S", "liang_bangao yibangao jingtong"),
    ("sihai_yijia", "四海一家", 40, "S", "tai_bangao liang_bangao yibangao siguisi"),
    ("yise_shuanglong", "一色双龙会", 40, "S",
     "qingyise liang_bangao yibangao "
     "laoshao_shuangshun laoshao jiangyan"),
    ("liang_gangzi", "两杠子", 4, "S", ""),
    ("san_gangzi", "三杠子", 20, "S", "liang_gangzi"),
    ("shiba_luohan", "十八罗汉", 80, "S", "san_gangzi liang_gangzi duiduihu dutin"),
    ("san_anke", "三暗刻", 10, "S", ""),
    ("si_anke", "四暗刻", 30, "S", "san_anke duiduihu menqing"),
    ("siguiyi", "四归一", 1, "S", ""),
    ("siguier", "四归二", 4, "S", ""),
    ("siguisi", "四归四", 20, "S", "yibangao"),
    ("shuang_siguiyi", "双四归一", 4, "S", "siguiyi"),
    ("baguier", "八归二", 6, "S", "shuang_siguiyi siguiyi"),
    ("shierguisan", "十二归三", 30, "S", "baguier shuang_siguiyi siguiyi sanlianke"),
]


def test_table_matches_rulebook() -> None:
    assert list(YAKU) == [row[0] for row in RULEBOOK], "ids or rulebook order differ"
    for yid, zh, points, shape, excludes in RULEBOOK:
        y = YAKU[yid]
        assert (y.name_zh, y.points, set(y.shapes), set(y.excludes)) == \
            (zh, points, SHAPES[shape], set(excludes.split())), yid


def test_categories_cover_every_yaku_once() -> None:
    ids = [y.id for _, _, group in CATEGORIES for y in group]
    assert sorted(ids) == sorted(YAKU)


# Hands that, with the yaku-table rows, make every excluded pair hold together.
EXTRA = [
    ("111999m1199p999s", "1p", "", dict(seat_wind="W", tsumo=True)),
    ("7z", "7z", "ankan:3333z,minkan:5555z,minkan:2222z,ankan:6666z",
     dict(seat_wind="E", tsumo=True, haidi=True)),
    ("11m77778889999p", "8p", "", dict(seat_wind="E", round_wind="S", tsumo=True,
                                       tianhu=True)),
    ("1122334556677z", "4z", "", dict(seat_wind="W", round_wind="N", tsumo=True, dihu=True)),
    ("6677788899m", "6m", "chi:678m", dict(seat_wind="W", round_wind="N", tsumo=True)),
    ("1123355778899m", "2m", "", dict(seat_wind="N", round_wind="S")),
    ("6z", "6z", "pon:444z,pon:222z,minkan:3333z,pon:111z", dict(seat_wind="E", hedi=True)),
    ("9s", "9s", "chi:789s,chi:789s,chi:789m,chi:789p",
     dict(seat_wind="N", round_wind="N", tsumo=True)),
    ("445566m5p445566s", "5p", "", dict(seat_wind="S", round_wind="W", tsumo=True)),
    ("17m258p36s123457z", "6z", "", dict(seat_wind="E", qianggang=True, juezhang=True)),
    ("1122334455667m", "7m", "", dict(seat_wind="S", round_wind="N", renhu=True)),
    ("22288m88s", "8m", "pon:222s,kakan:2222p", dict(seat_wind="E", round_wind="N")),
    ("111999m9s", "9s", "ankan:1111p,pon:999p", dict(seat_wind="N", tsumo=True)),
    ("2233444z", "3z", "minkan:1111z,ankan:7777z",
     dict(seat_wind="E", round_wind="N", tsumo=True, lingshang=True)),
    ("147m369p58s13457z", "2s", "", dict(seat_wind="S", round_wind="S", tsumo=True)),
    ("22m11123p123s", "1p", "chi:123s", dict(seat_wind="W", round_wind="S")),
    ("14m147p147s24567z", "7m", "", dict(seat_wind="S", round_wind="N", tsumo=True)),
    ("4445556677788m", "6m", "", dict(seat_wind="S", round_wind="W")),
    ("19m19p19s1234567z", "4z", "", dict(seat_wind="W")),
    ("2224666777z", "4z", "pon:555z", dict(seat_wind="E", round_wind="N", tsumo=True)),
    ("1223456789m234s", "2m", "", dict(seat_wind="W", round_wind="S", tsumo=True)),
    ("1223334445566s", "6s", "", dict(seat_wind="E", round_wind="S")),
    ("3399m", "9m", "chi:123m,pon:111m,chi:789m", dict(seat_wind="S")),
]


def _hands():
    for row in ROWS:
        yield row.hand, row.win, row.melds, {"seat_wind": "S", **row.opts}
    yield from EXTRA


def test_every_exclusion_is_applied() -> None:
    listed = {(a, b) for a, y in YAKU.items() for b in y.excludes}
    seen = set()
    for hand, win, melds, opts in _hands():
        r = score_hand(hand, win, melds, **opts)
        held = holding_yaku(r.reading)
        for a in held:
            for b in YAKU[a].excludes & held.keys():
                seen.add((a, b))
                assert b not in r.yaku, f"{hand}+{win}: {a} holds, so {b} must not count"
        # one pass: whatever a holding yaku excludes is dropped, even if that yaku is dropped
        assert set(r.yaku) == held.keys() - {b for a in held for b in YAKU[a].excludes}
    assert listed - seen == set(), "exclusions never exercised"

