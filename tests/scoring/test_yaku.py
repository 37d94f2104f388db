"""Every yaku of RULES.md §8: at least one hand where it is counted and one where it is not.

Rows are (yaku id, concealed hand before the win, winning tile, melds, options, present?).
Unless a row says otherwise the winner sits South in an East round and wins by ron, so no
wind yaku appear by accident. Negative rows are near misses of the positive ones where one
fits (one tile or one flag changed).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from mjenv.scoring import YAKU, score_hand


class Row(NamedTuple):
    yaku: str
    hand: str
    win: str
    melds: str
    opts: dict
    present: bool

    def __str__(self) -> str:
        return f"{'+' if self.present else '-'}{self.yaku}:{self.hand}+{self.win}"


def P(yaku: str, hand: str, win: str, melds: str = "", **opts) -> Row:
    return Row(yaku, hand, win, melds, opts, True)


def N(yaku: str, hand: str, win: str, melds: str = "", **opts) -> Row:
    return Row(yaku, hand, win, melds, opts, False)


PINGHU = "23m456p234789s55p"          # + 1m: four chows, 5p pair, two-sided wait

ROWS = [
    # 基本胡牌型
    P("pinghu", PINGHU, "1m"),
    P("pinghu", "23m456p234789s55p", "4m"),
    N("pinghu", "23m456p234789s22z", "1m"),                 # pair is the seat wind (S)
    N("pinghu", "12m456p234789s55p", "3m"),                 # edge wait
    N("pinghu", "13m456p234789s55p", "2m"),                 # closed wait
    P("duiduihu", "111m222p333s44z55z", "4z"),
    N("duiduihu", "111m222p345s44z55z", "4z"),
    P("jiuzi_lianhuan", "1112345678999m", "5m"),
    P("jiuzi_lianhuan", "1112345678999p", "9p", tsumo=True),
    N("jiuzi_lianhuan", "1112345699m", "7m", "chi:789m"),   # same 14 tiles, one chow called
    P("lian_qidui", "1122334455667p", "7p", tsumo=True),
    N("lian_qidui", "1122334455668p", "8p", tsumo=True),
    # 特殊胡牌型
    P("qiduizi", "1133m2255p7s1122z", "7s"),
    N("qiduizi", "1122334455667p", "7p"),                   # 连七对 implies it
    N("qiduizi", "112233m445566p7s", "7s"),                 # the standard reading scores more
    P("shisan_buda", "14m258p369s12345z", "6z"),
    N("shisan_buda", "147m258p369s1234z", "5z"),            # 不搭龙 implies it
    P("qixing_bukao", "14m25p36s1234567z", "9s"),
    N("qixing_bukao", "14m258p36s123456z", "9s"),
    P("buda_long", "147m258p369s1234z", "5z"),
    N("buda_long", "14m258p369s12345z", "6z"),              # no 7
    P("buda_sanxiangfeng", "147m147p147s1234z", "5z"),
    N("buda_sanxiangfeng", "147m147p148s1234z", "5z"),
    P("shisanyao", "19m19p19s1234567z", "1m"),
    N("shisanyao", "19m19p19s1234567z", "4m"),              # 七星不靠 (knitted 149m)
    P("da_qixing", "1122334455667z", "7z"),
    N("da_qixing", "1122334455z6z77m", "6z"),
    # 胡牌情况型
    P("menqing", PINGHU, "1m"),
    P("menqing", "23m456p789s55p", "1m", "ankan:1111z"),    # a concealed kan keeps it
    N("menqing", "23m456p789s55p", "1m", "chi:234s"),
    N("menqing", "23m456p789s55p", "1m", "kakan:1111z"),
    P("dutin", "123m456m789m123p5s", "5s"),
    P("dutin", "12m456p234789s55p", "3m"),                  # edge wait, one wait
    N("dutin", PINGHU, "1m"),
    N("dutin", "1234m456p234789s", "4m"),                   # 1m/4m: two waits
    P("duipeng", "11m22p345678999s", "1m"),
    N("duipeng", PINGHU, "1m"),
    P("jiadu", "1234m456p234789s", "4m"),                   # 单吊 4m, but 1m also wins
    P("jiadu", "1113m456p234789s", "2m"),                   # 坎张 2m, but 3m also wins
    N("jiadu", "12m456p234789s55p", "3m"),                  # edge wait but the only wait
    P("zimo", "23m456p789s55p", "1m", "chi:234s", tsumo=True),
    N("zimo", "23m456p789s55p", "1m", "chi:234s"),
    N("zimo", PINGHU, "1m", tsumo=True),                    # 不求人 implies it
    P("buqiuren", PINGHU, "1m", tsumo=True),
    N("buqiuren", "23m456p789s55p", "1m", "chi:234s", tsumo=True),
    P("banqiuren", "5p", "5p", "chi:123m,chi:456p,chi:789s,pon:777z", tsumo=True),
    N("banqiuren", "5p", "5p", "chi:123m,chi:456p,chi:789s,ankan:7777z", tsumo=True),
    N("banqiuren", "5p", "5p", "chi:123m,chi:456p,chi:789s,pon:777z"),
    P("quanqiuren", "5p", "5p", "chi:123m,chi:456p,chi:789s,pon:777z"),
    P("quanqiuren", "5p", "5p", "chi:123m,chi:456p,chi:789s,kakan:7777z"),
    N("quanqiuren", "5p", "5p", "chi:123m,chi:456p,chi:789s,pon:777z", tsumo=True),
    # 偶然胡牌型
    P("lingshang", "23m456p789s55p", "1m", "minkan:7777z", tsumo=True, lingshang=True),
    N("lingshang", "23m456p789s55p", "1m", "minkan:7777z", tsumo=True),
    P("haidi", PINGHU, "1m", tsumo=True, haidi=True),
    N("haidi", PINGHU, "1m", tsumo=True),
    P("hedi", PINGHU, "1m", hedi=True),
    N("hedi", PINGHU, "1m"),
    P("qianggang", PINGHU, "1m", qianggang=True),
    N("qianggang", PINGHU, "1m"),
    P("juezhang", PINGHU, "1m", juezhang=True),
    N("juezhang", PINGHU, "1m"),
    N("juezhang", PINGHU, "1m", juezhang=True, qianggang=True),   # 抢杠 implies it
    P("renhu", PINGHU, "1m", renhu=True),
    N("renhu", PINGHU, "1m"),
    P("dihu", PINGHU, "1m", tsumo=True, dihu=True),
    N("dihu", PINGHU, "1m", tsumo=True),
    P("tianhu", PINGHU, "1m", tsumo=True, tianhu=True, seat_wind="E"),
    N("tianhu", PINGHU, "1m", tsumo=True, seat_wind="E"),
    # 花色型
    P("quemen", "23m456m234789s55m", "1m"),
    P("quemen", "11336688m2255p9p", "9p"),                  # seven pairs too
    N("quemen", PINGHU, "1m"),
    N("quemen", "23m456m234789s55z", "1m"),                 # honors
    P("wumenqi", "23m456p789s111z55z", "1m"),
    N("wumenqi", "23m456p789s111z44z", "1m"),               # no dragon
    P("hunyise", "23456789m111z55z", "1m"),
    N("hunyise", "23456m789p111z55z", "1m"),
    N("hunyise", "2233445556789m", "1m"),
    P("qingyise", "2233445556789m", "1m"),
    N("qingyise", "23456789m111z55z", "1m"),
    P("ziyise", "1112223335556z", "6z"),
    N("ziyise", "111222333z5z", "5z", "pon:999m"),
    # 幺九型
    P("hunquan", "123m789p2399s111z", "1s"),
    N("hunquan", "123m789p3499s111z", "2s"),
    P("chunquan", "123789m789p2399s", "1s"),
    N("chunquan", "123456m789p2399s", "1s"),
    N("chunquan", "123m789p2399s111z", "1s"),               # honors
    P("hunlaotou", "11199m999p111s11z", "1z"),
    N("hunlaotou", "11199m888p111s11z", "1z"),
    P("qinglaotou", "1199m999p111999s", "1m"),
    N("qinglaotou", "11199m999p111s11z", "1z"),
    # 数字型
    P("jiangyan", PINGHU, "1m"),
    N("jiangyan", "23m456p234789s99p", "1m"),
    P("duanyao", "34m456p234567s88s", "2m"),
    N("duanyao", "34m456p234789s88s", "2m"),
    P("dayuwu", "78999m789p66p678s", "6m"),
    N("dayuwu", "78999m789p66p567s", "6m"),
    P("xiaoyuwu", "23m111234p12344s", "1m"),
    N("xiaoyuwu", "23m111234p12355s", "1m"),
    P("quanda", "77778m789p78999s", "9m"),
    N("quanda", "77778m789p67899s", "9m"),
    P("quanzhong", "444456m56p45666s", "4p"),
    N("quanzhong", "444456m56p34566s", "4p"),
    P("quanxiao", "23333m123p12223s", "1m"),
    N("quanxiao", "23333m123p22234s", "1m"),
    P("san_xushu", "111m111555p5999s", "5s"),
    P("san_xushu", "111999m99p111z22z", "2z"),              # winds are one number
    N("san_xushu", "111m111555p6999s", "6s"),
    P("liang_xushu", "222555m222p2555s", "2s"),
    N("liang_xushu", "222555m222p5558s", "8s"),
    P("yitiaolong", "123m456m789m123p5s", "5s"),
    N("yitiaolong", "123m456m678m123p5s", "5s"),
    P("laoshao", "123789m456p234s5p", "5p"),
    P("laoshao", "111999m456p234s5p", "5p"),
    N("laoshao", "123678m456p234s5p", "5p"),
    N("laoshao", "123m456m789m123p5s", "5s"),               # 一条龙 implies it
    P("fengyao", "123789m111999p5s", "5s"),
    N("fengyao", "123789m111888p5s", "5s"),
    P("laoshao_shuangshun", "123789m123789p2s", "2s"),
    N("laoshao_shuangshun", "123789m123456p2s", "2s"),
    P("laoshao_shuangdui", "111999m111999p5s", "5s"),
    N("laoshao_shuangdui", "111999m111888p5s", "5s"),
    P("quandai", "12333m34p233334s", "5p"),
    N("quandai", "12333m45p233334s", "6p"),
    P("jishu_duidui", "111777m3339p555s", "9p"),
    N("jishu_duidui", "111888m3339p555s", "9p"),
    P("oushu_duidui", "222888m2444p666s", "2p"),
    N("oushu_duidui", "222777m2444p666s", "2p"),
    P("jingtong", "123m456m789m123p5s", "5s"),
    N("jingtong", "123m456m789m234p5s", "5s"),
    P("ertongke", "333m333777p777s1z", "1z"),
    N("ertongke", "333m333888p777s1z", "1z"),
    P("sanbuke", "2225m555p222888s", "5m"),
    N("sanbuke", "2225m555p222999s", "5m"),
    # 字牌型
    P("sanyuanpai", "567m345p8p", "8p", "pon:777z,chi:234s"),
    N("sanyuanpai", "567m345p8p", "8p", "pon:444z,chi:234s"),
    N("sanyuanpai", "123m456p555666z7z", "7z"),             # 小三元 implies it
    P("menfeng", "123m456p789s222z5p", "5p"),
    N("menfeng", "123m456p789s222z5p", "5p", seat_wind="W"),
    P("quanfeng", "123m456p789s111z5p", "5p"),
    N("quanfeng", "123m456p789s111z5p", "5p", round_wind="S"),
    P("xiao_sanfeng", "123m456p111z222z3z", "3z"),
    N("xiao_sanfeng", "123m456p111z222z5z", "5z"),
    P("da_sanfeng", "123m111222333z5p", "5p"),
    N("da_sanfeng", "123m111222555z5p", "5p"),
    P("xiao_sanyuan", "123m456p555666z7z", "7z"),
    N("xiao_sanyuan", "123m456p555666z1z", "1z"),
    P("da_sanyuan", "123m555666777z5p", "5p"),
    N("da_sanyuan", "123m111555666z5p", "5p"),
    P("xiao_sixi", "123m111222333z4z", "4z"),
    N("xiao_sixi", "123m111222333z5z", "5z"),
    P("da_sixi", "111222333444z5p", "5p"),
    N("da_sixi", "111222333555z5p", "5p"),
    # 三色型
    P("sanse_xiao_tongke", "123333m333456p3s", "3s"),
    N("sanse_xiao_tongke", "123333m333456p4s", "4s"),
    P("sanse_tongke", "123555m5559p555s", "9p"),
    N("sanse_tongke", "123555m5559p666s", "9p"),
    P("sanse_lianke", "123333m4449p555s", "9p"),
    N("sanse_lianke", "123333m4445559p", "9p"),
    P("sanxiangfeng", "234999m234p234s1z", "1z"),
    N("sanxiangfeng", "234999m234p345s1z", "1z"),
    P("sanse_sanbugao", "123999m234p345s1z", "1z"),
    P("sanse_sanbugao", "123999m345p567s1z", "1z"),
    N("sanse_sanbugao", "123999m234p456s1z", "1z"),
    P("hualong", "123m456p789s111z5z", "5z"),
    N("hualong", "123m456789p111z5z", "5z"),
    P("sanse_shuanglong", "123789m123789p5s", "5s"),
    N("sanse_shuanglong", "123789m123789p2s", "2s"),
    # 连刻型
    P("xiao_sanlianke", "222333m4m123p456s", "4m"),
    N("xiao_sanlianke", "222333m5m123p456s", "5m"),
    P("sanlianke", "222333444m123p5s", "5s"),
    N("sanlianke", "222333555m123p5s", "5s"),
    P("xiao_silianke", "222333444m5m123p", "5m"),
    N("xiao_silianke", "222333444m6m123p", "6m"),
    P("silianke", "222333444555m9p", "9p"),
    N("silianke", "222333444666m9p", "9p"),
    # 步步高型
    P("yise_sanbugao", "123234345m999p1z", "1z"),
    P("yise_sanbugao", "123345567m999p1z", "1z"),
    N("yise_sanbugao", "123234456m999p1z", "1z"),
    P("yise_sibugao", "123234345456m9p", "9p"),
    N("yise_sibugao", "123234345567m9p", "9p"),
    # 般高型
    P("yibangao", "112233m456p789s5z", "5z"),
    N("yibangao", "123234m456p789s5z", "5z"),
    P("liang_bangao", "112233m445566p9s", "9s"),
    N("liang_bangao", "112233m456567p9s", "9s"),
    P("tai_bangao", "112233m456p9s", "9s", "chi:123m"),
    N("tai_bangao", "112233m456p9s", "9s", "chi:234m"),
    P("qing_bangao", "112233m112233p9s", "9s"),
    N("qing_bangao", "112233m223344p9s", "9s"),
    P("sihai_yijia", "11122233m99p", "3m", "chi:123m"),
    N("sihai_yijia", "11122233m99p", "3m", "chi:234m"),
    P("yise_shuanglong", "1122335778899m", "5m"),
    N("yise_shuanglong", "1122334778899m", "4m"),
    # 开杠型, 暗刻型
    P("liang_gangzi", "123m456p5s", "5s", "minkan:1111z,minkan:2222z"),
    N("liang_gangzi", "123m456p5s", "5s", "minkan:1111z,pon:222z"),
    P("san_gangzi", "123m5s", "5s", "minkan:1111z,ankan:2222z,kakan:9999p"),
    N("san_gangzi", "123m5s", "5s", "minkan:1111z,ankan:2222z,pon:999p"),
    P("shiba_luohan", "5s", "5s", "minkan:1111z,ankan:2222z,kakan:9999p,minkan:4444m"),
    N("shiba_luohan", "5s", "5s", "minkan:1111z,ankan:2222z,kakan:9999p,pon:444m"),
    P("san_anke", "111456m222p333s5s", "5s"),
    P("san_anke", "111456m222p33s55s", "3s", tsumo=True),
    N("san_anke", "111456m222p33s55s", "3s"),               # ron completes 333s
    P("si_anke", "111m222p333s555z5s", "5s"),
    P("si_anke", "111m222p333s5s", "5s", "ankan:5555z"),    # a concealed kan counts
    N("si_anke", "111m222p333s5s", "5s", "pon:555z"),
    # 归一型
    P("siguiyi", "111123m456p789s5z", "5z"),
    N("siguiyi", "111234m456p789s5z", "5z"),
    N("siguiyi", "234m456p789s5z", "5z", "minkan:1111m"),  # a kong is never 归
    P("siguier", "12222334m456p78s", "9s"),
    N("siguier", "111123m456p789s5z", "5z"),
    P("siguisi", "122233334445m9p", "9p"),
    N("siguisi", "111123m456p789s5z", "5z"),
    P("shuang_siguiyi", "111123m789999p5s", "5s"),
    N("shuang_siguiyi", "111123m456p789s5z", "5z"),
    P("baguier", "111122223m456p5s", "5s"),
    N("baguier", "111123m789999p5s", "5s"),
    P("shierguisan", "122223333m9p", "9p", "pon:111m"),
    N("shierguisan", "111122223m456p5s", "5s"),
]


def _score(row: Row):
    opts = {"seat_wind": "S", "round_wind": "E", **row.opts}
    return score_hand(row.hand, row.win, row.melds, **opts)


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_row(row: Row) -> None:
    r = _score(row)
    assert (row.yaku in r.yaku) == row.present, f"{row}: got {r.points} {r.yaku}"


def test_every_yaku_has_positive_and_negative_rows() -> None:
    positive = {row.yaku for row in ROWS if row.present}
    negative = {row.yaku for row in ROWS if not row.present}
    assert set(YAKU) - positive == set()
    assert set(YAKU) - negative == set()
    assert (positive | negative) <= set(YAKU)


def test_dragon_pungs_count_once_each() -> None:
    r = score_hand("123m456p555666z1z", "1z", seat_wind="S")
    assert r.yaku["sanyuanpai"] == 2
